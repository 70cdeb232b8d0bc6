"""PettingZoo's own ``api_test`` and ``seed_test``, and Gymnasium's ``check_env``, on the
research doors (qipai.env) of the board games."""

from tests.env_helpers import family_tests

test_pettingzoo_api_and_seed, test_gymnasium_check_env = family_tests(
    {"go", "gomoku", "xiangqi", "chinese-checkers", "junqi"})
