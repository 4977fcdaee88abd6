"""Placeholder: being written."""


def check():
    raise NotImplementedError


def export():
    raise NotImplementedError
