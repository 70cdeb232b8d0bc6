"""The message catalogues (qipai.i18n): both languages have every key, templates agree on
their parameters, and the server serves them and answers errors with codes."""

from __future__ import annotations

import pytest

from qipai import i18n
from tests.server_helpers import client


def test_both_catalogues_have_the_same_keys():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    assert sorted(set(en) - set(zh)) == [], "keys missing from zh.json"
    assert sorted(set(zh) - set(en)) == [], "keys missing from en.json"


def test_templates_name_the_same_parameters_in_both_languages():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    differ = {k: (i18n.fields(en[k]), i18n.fields(zh[k])) for k in en
              if k in zh and i18n.fields(en[k]) != i18n.fields(zh[k])}
    assert differ == {}


def test_no_chinese_template_is_left_in_english():
    # a Chinese entry may hold notation or digits, never a sentence of English words
    import re
    zh = i18n.catalogue("zh")
    english = {k: v for k, v in zh.items()
               if re.search(r"[A-Za-z]{4,}", i18n._FIELD.sub("", v)) and not re.search(r"[\u4e00-\u9fff]", v)}
    assert english == {}


def test_fill_and_fallbacks():
    assert i18n.t("resign", lang="zh") == "认输"
    assert i18n.t("resign", lang="en") == "Resign"
    assert i18n.t("no.such.key", lang="zh") == "no.such.key"
    assert i18n.t("no.such.key", lang="zh", default="x") == "x"
    assert i18n.fill("{a} and {b}", {"a": 1}) == "1 and {b}"
    assert i18n.fill("{a}", {"a": [1, 2]}) == "1, 2"
    assert i18n.fill("{s|status}", {"s": "finished"}, "zh") == i18n.t("status.finished", lang="zh")
    assert i18n.language("zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert i18n.language("en-GB") == "en" and i18n.language(None) == "en"
    with pytest.raises(KeyError):
        i18n.catalogue("fr")


def test_the_server_serves_the_catalogues(tmp_path):
    c = client(tmp_path)
    r = c.get("/api/i18n/zh")
    assert r.status_code == 200 and r.json() == i18n.catalogue("zh")
    r = c.get("/api/i18n/fr")
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == body["code"] == "no_language" and body["params"] == {"lang": "fr"}
    assert i18n.has("error.no_language", "zh")
