a = 1
emit("y")
a = 1
emit("y")
a = 1
