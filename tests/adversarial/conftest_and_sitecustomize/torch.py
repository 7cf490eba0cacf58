raise ImportError("the submission's torch.py shadowed the real torch")
