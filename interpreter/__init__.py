"""The interpreter: parse, check, model, compile, engine. It knows no game."""
