"""The command line: typer commands that call the interpreter and print with rich."""
