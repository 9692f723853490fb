"""A made-up module: what the re-pinning tests quote."""


def stays():
    return "in place"


# Two lines added
# above this function.
def shifts():
    return "two lines lower"


def edited():
    return "after"


def twin_a():
    emit("twin")


def twin_b():
    emit("twin")


def decoy():
    first = "b"
    emit("same")
    last = "b"


def tell_apart():
    first = "a"
    emit("same")
    last = "a"


def block(x):
    total = x
    total += 1
    return total


def padded():
    note = "kept"
