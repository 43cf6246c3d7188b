"""R2: players, sides and seating; R4.2: hand sizes."""

import pytest

from sequence_game import ConfigError, GameConfig, new_game


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 9, 10, 12])
def test_R2_1_allowed_player_counts(players: int) -> None:
    assert GameConfig(players=players).players == players


@pytest.mark.parametrize("players", [0, 1, 5, 7, 11, 13, -2])
def test_R2_1_other_counts_are_refused(players: int) -> None:
    with pytest.raises(ConfigError, match=r"R2\.1"):
        GameConfig(players=players)


def test_R2_1_non_integer_players_refused() -> None:
    with pytest.raises(ConfigError):
        GameConfig(players="4")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "teams"),
    [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)],
)
def test_R2_2_allowed_sides(players: int, teams: int) -> None:
    config = GameConfig(players=players, teams=teams)
    assert config.sides == teams
    assert config.team_size * teams == players


@pytest.mark.parametrize(("players", "teams"), [(4, 4), (4, 3), (6, 6), (8, 4), (9, 2), (12, 4), (2, 1)])
def test_R2_2_unequal_or_too_many_sides_refused(players: int, teams: int) -> None:
    with pytest.raises(ConfigError, match=r"R2\.2"):
        GameConfig(players=players, teams=teams)


def test_R2_3_team_mates_sit_alternately() -> None:
    config = GameConfig(players=6, teams=3)
    assert [config.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert config.seats_of(1) == (1, 4)


@pytest.mark.parametrize(
    ("players", "size"), [(2, 7), (3, 6), (4, 6), (6, 5), (8, 4), (9, 4), (10, 3), (12, 3)]
)
def test_R4_2_hand_sizes(players: int, size: int) -> None:
    state = new_game(GameConfig(players=players), seed=1)
    assert state.hand_sizes() == [size] * players
    assert state.deck_size == 104 - size * players


def test_R3_1_sequences_to_win() -> None:
    assert GameConfig(players=4).sequences_to_win == 2
    assert GameConfig(players=3).sequences_to_win == 1
    assert GameConfig(players=6, teams=3).sequences_to_win == 1


def test_R5_3_unknown_draw_mode_refused() -> None:
    with pytest.raises(ConfigError, match=r"R5\.3"):
        GameConfig(draw="sometimes")  # type: ignore[arg-type]
