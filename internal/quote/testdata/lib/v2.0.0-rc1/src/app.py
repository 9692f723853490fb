async def connect():
    return "stable"

def timeout():
    return 60
