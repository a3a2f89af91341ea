"""Final scoring: the worked examples of the rules file and the tie rules."""

from fantasy_scorer.majesty.scoring import score

P1 = [3, 0, 2, 1, 2, 1, 2, 1]
P2 = [2, 3, 0, 2, 0, 2, 1, 2]


def test_worked_example_side_a():
    final = score("A" * 8, ["P1", "P2"], [0, 0], [P1, P2])
    p1, p2 = final.players
    assert (p1.infirmary, p1.variety, p1.total) == (-1, 36, 87)
    assert p1.majorities == {"mill": 10, "cottage": 12, "barracks": 14, "castle": 16}
    assert (p2.infirmary, p2.variety, p2.total) == (-2, 25, 62)
    assert p2.majorities == {"brewery": 11, "guardhouse": 13, "inn": 15}
    assert final.winners == ("P1",)


def test_worked_example_side_b():
    final = score("B" * 8, ["P1", "P2"], [0, 0], [P1, P2])
    p1, p2 = final.players
    assert (p1.infirmary, p1.variety, p1.total) == (-2, 36, 84)
    assert p1.majorities == {"mill": 14, "cottage": 12, "barracks": 8, "castle": 16}
    assert (p2.infirmary, p2.variety, p2.total) == (-14, 25, 43)
    assert p2.majorities == {"brewery": 12, "guardhouse": 8, "inn": 12}


def test_points_from_play_are_added():
    final = score("A" * 8, ["P1", "P2"], [41, 57], [P1, P2])
    assert [p.total for p in final.players] == [128, 119]


def test_mixed_sides_per_location():
    # 1A mill 10, 2B brewery 12, 3A cottage 12, 4B guardhouse 8, 5A barracks 14, 6B inn 12,
    # 7A castle 16, 8B infirmary -2 per card and -10 for the most.
    final = score("ABABABAB", ["P1", "P2"], [0, 0], [P1, P2])
    assert [p.infirmary for p in final.players] == [-2, -14]
    assert [p.total for p in final.players] == [-2 + 36 + 10 + 12 + 14 + 16, -14 + 25 + 12 + 8 + 12]


def test_majority_ties_pay_everyone_the_full_value_and_empty_locations_pay_nobody():
    a = [2, 0, 0, 0, 0, 0, 0, 0]
    b = [2, 0, 0, 0, 0, 0, 0, 0]
    final = score("A" * 8, ["a", "b"], [0, 0], [a, b])
    assert [p.majorities for p in final.players] == [{"mill": 10}, {"mill": 10}]
    assert [p.total for p in final.players] == [11, 11]  # 10 + variety 1
    assert final.winners == ("a", "b")


def test_side_b_infirmary_most_cards_ties_all_pay():
    realms = [[1, 0, 0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0, 0, 1]]
    final = score("B" * 8, ["a", "b", "c"], [0, 0, 0], realms)
    assert [p.infirmary for p in final.players] == [-14, -14, -2]


def test_side_b_infirmary_nobody_pays_ten_when_all_are_empty():
    realms = [[1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0]]
    final = score("B" * 8, ["a", "b"], [0, 0], realms)
    assert [p.infirmary for p in final.players] == [0, 0]


def test_meeple_tiebreak_variant():
    realms = [[2, 0, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0]]
    shared = score("A" * 8, ["a", "b"], [5, 5], realms, meeples=[1, 3])
    assert shared.winners == ("a", "b")
    broken = score("A" * 8, ["a", "b"], [5, 5], realms, meeples=[1, 3], meeple_tiebreak=True)
    assert broken.winners == ("b",)


def test_json_shape():
    # Side A: the Infirmary costs 1 per card and has no rule for the most cards.
    data = score("A" * 8, ["P1", "P2"], [41, 57], [P1, P2]).to_json()
    assert data == {
        "players": [
            {
                "name": "P1",
                "points": 41,
                "infirmary": -1,
                "infirmary_cards": -1,
                "infirmary_most": 0,
                "variety": 36,
                "majorities": {"mill": 10, "cottage": 12, "barracks": 14, "castle": 16},
                "shared": {},
                "total": 41 + 87,
            },
            {
                "name": "P2",
                "points": 57,
                "infirmary": -2,
                "infirmary_cards": -2,
                "infirmary_most": 0,
                "variety": 25,
                "majorities": {"brewery": 11, "guardhouse": 13, "inn": 15},
                "shared": {},
                "total": 57 + 62,
            },
        ],
        "winners": ["P1"],
    }


def test_side_b_infirmary_separates_the_per_card_penalty_from_the_most_cards():
    # Worked example, side B: P1 has 1 card (-2 x 1), P2 has 2, the most (-2 x 2, and -10).
    p1, p2 = score("B" * 8, ["P1", "P2"], [0, 0], [P1, P2]).players
    assert (p1.infirmary_cards, p1.infirmary_most, p1.infirmary) == (-2, 0, -2)
    assert (p2.infirmary_cards, p2.infirmary_most, p2.infirmary) == (-4, -10, -14)


def test_side_b_most_cards_tied_all_pay_the_extra_ten():
    realms = [[1, 0, 0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0, 0, 1]]
    players = score("B" * 8, ["a", "b", "c"], [0, 0, 0], realms).players
    assert [(p.infirmary_cards, p.infirmary_most) for p in players] == [
        (-4, -10), (-4, -10), (-2, 0)
    ]


def test_shared_majorities_name_the_other_holders():
    # Three players, side A: a and b both have 2 Millers (mill shared, 10 each); a, b and c
    # each have 1 Witch (cottage shared by all three, 12 each); c alone has a Guard.
    a = [2, 0, 1, 0, 0, 0, 0, 0]
    b = [2, 0, 1, 0, 0, 0, 0, 0]
    c = [1, 0, 1, 1, 0, 0, 0, 0]
    pa, pb, pc = score("A" * 8, ["a", "b", "c"], [0, 0, 0], [a, b, c]).players
    assert pa.majorities == {"mill": 10, "cottage": 12}
    assert pa.shared == {"mill": ("b",), "cottage": ("b", "c")}
    assert pb.shared == {"mill": ("a",), "cottage": ("a", "c")}
    assert pc.majorities == {"cottage": 12, "guardhouse": 13}
    assert pc.shared == {"cottage": ("a", "b")}
    # totals: a 10 + 12 + variety 2 x 2 = 26; c 12 + 13 + 3 x 3 = 34
    assert (pa.total, pc.total) == (26, 34)
