def connect():
    return "stable"

def timeout():
    return 30

def retries():
    return "three"
