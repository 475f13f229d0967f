i
