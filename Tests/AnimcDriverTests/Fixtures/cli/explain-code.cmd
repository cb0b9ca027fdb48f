explain W0501
