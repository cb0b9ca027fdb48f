chek examples
