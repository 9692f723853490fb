"""The 2.x client."""
async def connect():
    return "stable"

def timeout():
    return 60
