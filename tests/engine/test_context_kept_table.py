"""Context.kept_table: a per-game table kept while its sources are the very same objects
(the Europa bots' once-a-game facts: SP costs, overrun ground, attack hexsides; issue 25)."""
from grognard.engine.context import Context


def test_kept_table_is_kept_while_the_sources_are_the_same_objects() -> None:
    ctx = Context.__new__(Context)
    object.__setattr__(ctx, "kept", {})  # only the kept facts are read
    a, b = object(), object()
    t = ctx.kept_table("x", a, b)
    t["k"] = 1
    assert ctx.kept_table("x", a, b) is t
    # an equal but different source object, or another number of sources, starts anew
    assert ctx.kept_table("x", a, object()) == {}
    assert ctx.kept_table("x", a) == {}
    assert ctx.kept_table("y", a) is not ctx.kept_table("x", a)
