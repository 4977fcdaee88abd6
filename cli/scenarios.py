"""Placeholder: being written."""


def scenarios():
    raise NotImplementedError
