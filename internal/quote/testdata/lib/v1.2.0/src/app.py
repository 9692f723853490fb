def connect():
    return "stable"

# the default, in seconds
# (see the docs)
def timeout():
    return 30

def retries():
    return "five"
