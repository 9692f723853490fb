# moved down


def a():
    pass


def raise_it():
    raise Boom(
        "x"
    )
