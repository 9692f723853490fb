def legacy():
    pass
