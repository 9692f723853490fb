def vanishes():
    pass
