"""The optional inference stage's parts: titles, summaries and main topics written by a language model.

`paper-digest infer` (generator/inference.py) asks the model and keeps its answers in the results
file (store.py); every build applies them offline (apply.py). Nothing here runs unless the user
asks: with no endpoint configured, a build is what it was.
"""
