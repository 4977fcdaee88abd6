"""Small games of our own that several test modules play: each keeps one block or engine path in
view. A test module takes them from here, never from another test module."""
from .conftest import STUCK

KINDS = """
game "Kinds" { }
players 2..2
attribute n in 1..3
attribute colour { red, black }
card number { n each  colour = red }
card joker { copies 2 }
zone stock shared hidden
zone hand per seat owner
zone out per seat public
setup { shuffle deck into stock  deal 2 from stock to hand }
play give { card from hand where card.n < 2 and distinct(values(colour)) == values(colour)  to out of self }
turn { play one of give or pass }
end round done when passes >= players
score s = sum(cards(out of s).n) + count(x in cards(out of s) where x.colour == red)
match { until round >= 1 }
"""


QUICK = """
game "Quick" { }
players 2..3
attribute type { number, jump, flip }
attribute n in 1..5
card num { type = number  n each  copies 2  face "n{n}" }
card jump { type = jump  copies 2  face "jump" }
card flip { type = flip  copies 2  face "flip" }
zone stock shared hidden
zone hand per seat owner
zone table shared public
setup { shuffle deck into stock  deal 3 from stock to hand }
play lay { card from hand where card.type == number  to table }
play jump { card from hand where card.type == jump  to table  then next turn to self }
play flip { card from hand where card.type == flip  to table  then reverse }
turn { draw 1 from stock to hand  play one of lay or pass }
window { play any of jump, flip  open after every step }
end round out when count(stock) == 0
score s = count(hand of s)
match { until round >= 1  winner lowest }
"""


RAID = """
game "Raid" { }
players 2..3
attribute type { gem, grab, heist, trade, mask }
attribute n in 1..4
card gem { type = gem  n each  copies 3  face "g{n}" }
card grab { type = grab  copies 3  face "grab" }
card heist { type = heist  copies 3  face "heist" }
card trade { type = trade  copies 3  face "trade" }
card mask { type = mask  copies 4  face "mask" }
zone stock shared hidden
zone discard shared public
zone hand per seat owner
zone vault per seat public piles
setup { shuffle deck into stock  deal 3 from stock to hand }
play store { card from hand where card.type == gem  to vault of self  new pile  onto pile when top(pile).type == mask }
play masked { card from hand where card.type == mask  to vault of self  onto pile }
play grab {
    card from hand where card.type == grab
    to discard
    choose seat victim of any other seat where count(hand of victim) > 0
    then move 1 at random from hand of victim to hand of self
}
play heist {
    card from hand where card.type == heist
    to discard
    choose pile loot of vault of any other seat where count(c in cards(loot) where c.type == mask) > 0
    then move pile loot to vault of self
    then move all c from loot to discard where c.type == mask
}
play trade {
    card from hand where card.type == trade
    to discard
    choose seat partner of any other seat
    then move 2 x from hand of partner to vault of self where x.type == gem and x.n >= 3
    then move 1 y from discard to hand of self where y != card
}
turn { draw 1 from stock to hand  play one of store, masked, grab, heist, trade or pass }
end round out when count(stock) == 0
score s = sum(p in piles(vault of s): sum(c in cards(p): c.n))
match { until round >= 1 }
"""


QUICK_FINAL = QUICK.replace("end round out when count(stock) == 0",
                      "final round last when count(stock) == 0 {\n    play one of lay or pass\n}")


PAIRS = QUICK.replace(
    "play lay { card from hand where card.type == number  to table }",
    "play lay { card from hand where card.type == number  to table }\n"
    "zone rack per seat public piles\n"
    "play pair {\n"
    "    card from hand where card.type == number\n"
    "    with helper from hand where helper.type == flip or helper.n == card.n\n"
    "    to rack of any seat\n"
    "    new pile when count(piles(target)) < 2\n"
    "    onto pile when top(pile).n == helper.n\n"
    "}").replace("play one of lay or pass", "play one of lay, pair or pass")


TRADE = """
game "Trade" { }
players 2..4
attribute type { gem, swap, handoff, hush, flip }
attribute n in 1..4
card gem { type = gem  n each  copies 6  face "g{n}" }
card swap { type = swap  copies 2  face "swap" }
card handoff { type = handoff  copies 2  face "handoff" }
card hush { type = hush  copies 2  face "hush" }
card flip { type = flip  copies 2  face "flip" }
zone stock shared hidden
zone discard shared public
zone hand per seat owner
zone row per seat public
zone badge per seat public
setup { shuffle deck into stock  deal 2 from stock to hand }
define home(s) = seat(index(s) + 1)
play lay { card from hand where card.type == gem and card.n > 1  to row of home(self) }
play trade {
    card from hand where card.type == swap
    to discard
    choose seat victim of any other seat
    then swap row, badge of self with victim
}
play handoff { card from hand where card.type == handoff  to discard  then pass hand }
play flip { card from hand where card.type == flip  to discard  then reverse }
play hush {
    card from hand where card.type == hush
    to discard
    choose seat victim of any other seat
    then no answer from victim
}
play snap { card from hand where card.type == gem and card.n == 1  to discard }
turn { play one of lay, trade, handoff, flip, hush or pass }
window { play any of snap  open after every step }
end round out when count(stock) == 0 or passes >= players
score s = count(row of s) + count(badge of s)
match { until round >= 1 }
"""


# The same game, where a turn is any number of plays until the seat passes.
REPEAT = TRADE.replace("turn { play one of lay, trade, handoff, flip, hush or pass }",
                       "turn { may play any of lay, trade, handoff, flip, hush }")


STARS = """
game "Stars" { }
players 2, 4
attribute colour { red ru "красный", blue ru "синий" }
attribute n in 1..3
card chip {
    colour each  n each  copies 3
    face "{colour}{n}"
    face ru "{colour}-{n}"
    mark star 1 where card.n == 3
}
card wild { copies 2  face "wild"  face ru "дикая"  mark star }
deck few where card.star or card.n < 3 or players > 2
zone stock shared hidden
zone table shared public
zone hand per seat owner
setup { shuffle deck into stock  deal 3 from stock to hand }
play lay { card from hand  to table }
turn { play one of lay or pass }
end round out when some s in seats: count(hand of s) == 0
score s = count(hand of s)
match { until round >= 1  winner lowest }
"""


# Out-of-turn plays in a response window (so `pass` is a move), a reverse and a jump: the engine
# tests' game, for up to 4 players and two rounds.
WINDOWS = QUICK.replace("players 2..3", "players 2..4").replace("n in 1..5", "n in 1..6").replace(
    "copies 2  face \"n{n}\"", "copies 3  face \"n{n}\"").replace("until round >= 1", "until round >= 2")


# Effects that move cards: a chosen seat robbed at random, a chosen pile taken whole or in part.
PICKPOCKET = """\
game "Pickpocket" { }
players 2..4
attribute type { coin, hook, sweep, tithe }
attribute n in 1..5
card coin { type = coin  n each  copies 3  face "c{n}" }
card hook { type = hook  copies 3  face "hook" }
card sweep { type = sweep  copies 2  face "sweep" }
card tithe { type = tithe  copies 2  face "tithe" }
zone stock shared hidden
zone discard shared public
zone hand per seat owner
zone purse per seat public piles
setup {
    shuffle deck into stock
    deal 3 from stock to hand
}
play keep {
    card from hand where card.type == coin
    to purse of self
    new pile
    onto pile when top(pile).n < card.n
}
play hook {
    card from hand where card.type == hook
    to discard
    choose seat mark of any other seat where count(hand of mark) > 0
    then move 1 at random from hand of mark to hand of self
}
play sweep {
    card from hand where card.type == sweep
    to discard
    choose pile loot of purse of any other seat
    then move pile loot to purse of self
}
play tithe {
    card from hand where card.type == tithe
    to discard
    choose pile loot of purse of any other seat
    then move 1 c from loot to hand of self where c.n >= 1
}
turn {
    draw 1 from stock to hand
    play one of keep, hook, sweep, tithe or pass
}
end round out when count(stock) == 0
score s = sum(p in piles(purse of s): sum(c in cards(p): c.n))
match {
    until round >= 2
    winner highest
}
"""


# Every turn puts a card back on the stock and draws one: hands never empty, the round never ends.
LOOP = """\
game "Loop" { }
players 2..2
attribute rank in 1..4
card plain { rank each  face "r{rank}" }
zone stock shared hidden
zone hand per seat owner
setup {
    shuffle deck into stock
    deal 2 from stock to hand
}
play put { card from hand  to stock }
turn {
    play one of put or pass
    draw 1 from stock to hand
}
end round out when some s in seats: count(hand of s) == 0
score s = 0
match {
    until round >= 1
    winner highest
}
"""


# After a few plays nobody can play and the heap never fills: the engine stops the round. It is
# the self-play tests' stuck game with a playable card for the first few turns.
STALL = (
    STUCK.replace('"Stuck"', '"Stall"')
    .replace("deal 2", "deal 3")
    .replace("card.rank > 9", "card.rank > count(heap)")
    .replace("end round out when some s in seats: count(hand of s) == 0", "end round full when count(heap) > 100")
    .replace("until max(totals) >= 1", "until round >= 1")
)


TEXTS = {"windows": WINDOWS, "pickpocket": PICKPOCKET, "loop": LOOP, "stall": STALL}


LEDGER = """
game "Ledger" { }
players 2..4
attribute colour { red, blue }
attribute n in 1..5
card chip { colour each  n each  copies 2  face "{colour}{n}" }
zone stock shared hidden
zone pool shared public
zone hand per seat owner
zone bank per seat public
setup {
    shuffle deck into stock
    deal 3 from stock to hand
    let high = seat(round)
    let lead = bottom(stock).colour
}
play drop {
    card from hand
    to pool
    then set high to played_by(best(c in cards(pool): c.n)) when count(pool) >= 2
}
play call {
    choose seat victim of any other seat where count(hand of victim) > 0
    choose value v of colour where some c in cards(hand): c.colour == v
    then move all c from hand of victim to bank where c.colour == v
    then set calls to calls + 1
    then end turn when calls % 3 == 0
}
turn {
    play one of drop, call or pass
    then move all from pool to bank of high when count(pool) >= players
    draw 1 from stock to hand
}
end round dry when count(stock) == 0 or passes >= players
score s = count(bank of s) + count(c in cards(bank of s) where c.colour == lead)
match { until round >= 2  let calls = 0 }
"""
