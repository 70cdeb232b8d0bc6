"""PettingZoo's ``api_test`` / ``seed_test`` and Gymnasium's ``check_env`` on the mahjong
games' research doors."""

from tests.env_helpers import family_tests

test_pettingzoo_api_and_seed, test_gymnasium_check_env = family_tests(
    {"mahjong-gb", "laizi-mahjong", "baibian-bajue"})
