"""Placeholder: being written."""


def selfplay():
    raise NotImplementedError
