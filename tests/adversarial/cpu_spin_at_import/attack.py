# attack: spin forever while the module is being imported
while True:
    pass
