"""The shared card layer: codes, decks, rank orders, multisets, seeded and verifiable deals."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.cards import (
    DOUDIZHU,
    WAKENG,
    Card,
    Deal,
    Packer,
    RankOrder,
    commitment,
    deal_round_robin,
    is_card_code,
    make_deck,
    parse_card,
    parse_cards,
    seeded_deal,
    verify_deal,
)


def test_card_codes_in_and_out():
    c = parse_card("5H0")
    assert (c.rank, c.suit, c.deck, c.face, c.id) == ("5", "H", 0, "5H", "5H0")
    assert parse_card("5H") is c                       # face code = deck 0
    assert parse_card("th1").id == "TH1"
    assert parse_card("10S2").id == "TS2"
    assert parse_card("LJ").id == "LJ0" and parse_card("LJ").is_joker
    assert parse_card("BJ2").id == "BJ2" and parse_card("BJ2").rank == "B"
    assert str(parse_card("AS3")) == "AS3"
    assert [c.id for c in parse_cards("3S, 3H 4C1")] == ["3S0", "3H0", "4C1"]


@pytest.mark.parametrize("bad", ["1H", "5X", "5", "", "LJJ", "5HH", "XJ"])
def test_bad_card_codes_are_refused(bad):
    with pytest.raises(ValueError):
        parse_card(bad)
    assert not is_card_code(bad)


def test_cards_are_interned_and_immutable():
    assert Card("7", "C", 1) is parse_card("7C1")
    assert Card("7", "C", 1) is not Card("7", "C", 0)
    with pytest.raises(AttributeError):
        parse_card("7C1").rank = "8"
    with pytest.raises(ValueError):
        Card("L", "H", 0)


@pytest.mark.parametrize("decks,jokers,size", [(1, True, 54), (1, False, 52), (2, True, 108),
                                               (3, True, 162), (4, True, 216)])
def test_decks(decks, jokers, size):
    deck = make_deck(decks, jokers)
    assert len(deck) == size == len({c.id for c in deck})
    per_rank = Counter(c.rank for c in deck)
    assert per_rank["7"] == 4 * decks
    assert per_rank["L"] == per_rank["B"] == (decks if jokers else 0)
    assert {c.deck for c in deck} == set(range(decks))


def test_rank_orders_per_game():
    assert DOUDIZHU.index["2"] > DOUDIZHU.index["A"] > DOUDIZHU.index["3"]
    assert DOUDIZHU.index["B"] > DOUDIZHU.index["L"] > DOUDIZHU.index["2"]
    # 挖坑: 3 > 2 > A > K > ... > 4, straights only 4..K
    assert "".join(sorted("3A24K", key=WAKENG.index.get)) == "4KA23"
    assert WAKENG.chain == "456789TJQK"
    assert DOUDIZHU.is_run([0, 1, 2]) and not DOUDIZHU.is_run([10, 11, 12])   # K A 2 is no run
    with pytest.raises(ValueError):
        RankOrder("33456")


def test_card_id_order_breaks_ties_by_suit_then_deck():
    cards = parse_cards("5S0 5D1 5D0 4C0 5H0 LJ0 5C0")
    assert [c.id for c in DOUDIZHU.sort_cards(cards)] == ["4C0", "5D0", "5D1", "5C0", "5H0", "5S0", "LJ0"]
    with pytest.raises(ValueError):
        WAKENG.rank_of(parse_card("LJ"))            # 挖坑 has no jokers


def test_rank_strings():
    assert DOUDIZHU.parse_counts("333444+56") == DOUDIZHU.parse_counts("33344456")
    assert DOUDIZHU.format_counts(DOUDIZHU.parse_counts("B3L 10 t")) == "3TTLB"
    assert DOUDIZHU.counts_of(parse_cards("3S 3H LJ")) == DOUDIZHU.parse_counts("33L")
    with pytest.raises(ValueError, match="not a rank"):
        DOUDIZHU.parse_counts("33X")


def test_packer_containment_and_arithmetic():
    p = Packer(15, 4)
    hand = p.pack(DOUDIZHU.parse_counts("333445LB"))
    assert p.contains(hand, p.pack(DOUDIZHU.parse_counts("33L")))
    assert not p.contains(hand, p.pack(DOUDIZHU.parse_counts("3333")))
    assert not p.contains(hand, p.pack(DOUDIZHU.parse_counts("6")))
    assert p.unpack(hand - p.pack(DOUDIZHU.parse_counts("3LB"))) == DOUDIZHU.parse_counts("33445")
    assert p.total(hand) == 8
    with pytest.raises(ValueError):
        p.pack([5] + [0] * 14)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 16), min_size=15, max_size=15),
       st.lists(st.integers(0, 16), min_size=15, max_size=15))
def test_packer_matches_counting_for_four_decks(a, b):
    p = Packer(15, 16)                                 # 保皇: 16 cards of a rank
    assert p.unpack(p.pack(a)) == a
    assert p.contains(p.pack(a), p.pack(b)) == all(x >= y for x, y in zip(a, b))


def test_seeded_deal_is_reproducible_and_verifiable():
    deck = make_deck(2)
    d1, _ = seeded_deal("s1", deck, 4, 25)
    d2, _ = seeded_deal("s1", deck, 4, 25)
    d3, _ = seeded_deal("s2", deck, 4, 25)
    assert d1.to_json() == d2.to_json() != d3.to_json()
    assert [len(h) for h in d1.hands] == [25] * 4 and len(d1.kitty) == 8
    assert sorted(c.id for c in d1.all_cards()) == sorted(c.id for c in deck)
    published = commitment("s1")

    def redeal(seed):
        return seeded_deal(seed, deck, 4, 25)[0]

    assert verify_deal("s1", published, d1, redeal)
    assert not verify_deal("s2", published, d3, redeal)           # wrong seed for the commitment
    tampered = Deal([list(h) for h in d1.hands], list(d1.kitty))
    tampered.hands[0][0], tampered.kitty[0] = tampered.kitty[0], tampered.hands[0][0]
    assert not verify_deal("s1", published, tampered, redeal)
    assert Deal.from_json(d1.to_json()).to_json() == d1.to_json()


def test_round_robin_deal():
    deck = make_deck(1)
    d = deal_round_robin(deck, 3, 17)
    assert d.hands[0][:2] == [deck[0], deck[3]] and d.hands[2][0] == deck[2]
    assert d.kitty == deck[51:]
    with pytest.raises(ValueError):
        deal_round_robin(deck, 4, 17)


def test_cards_read_again_come_from_the_table_of_canonical_texts():
    from qipai.cards.card import _BY_TEXT

    for text in ("9D1", "9D", " 9d1 ", "9d", "TD2", "10D2"):
        first = parse_card(text)
        assert parse_card(text) is first
    assert parse_card(" 9d1 ") is parse_card("9D1") and parse_card("10D2") is parse_card("TD2")
    assert all(t in (c.id, c.face) for t, c in _BY_TEXT.items())   # no variant kept
    assert " 9d1 " not in _BY_TEXT and "10D2" not in _BY_TEXT
    with pytest.raises(AttributeError):
        parse_card(5)                                               # as before: not a text
