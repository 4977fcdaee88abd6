"""Placeholder: being written."""


def play():
    raise NotImplementedError


def replay():
    raise NotImplementedError
