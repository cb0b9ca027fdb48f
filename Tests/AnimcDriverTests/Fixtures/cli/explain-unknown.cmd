explain E9999
