import typer
app = typer.Typer()
@app.command()
def hello():
    from importlib.resources import files
    p = files("cardrules") / "grammar" / "cardrules.lark"
    print(p, p.is_file())
