"""A made-up module: what the re-pinning tests quote."""


def stays():
    return "in place"


def shifts():
    return "two lines lower"


def edited():
    return "before"


def twins():
    emit("twin")


def tell_apart():
    first = "a"
    emit("same")
    last = "a"


def block(x):
    total = x
    total += 1
    return total


def padded():
    note = "kept"  # a comment the next version drops
