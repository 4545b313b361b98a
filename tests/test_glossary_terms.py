"""Every behavioural glossary term is implemented by one module registered by its term id, and every
registered term (keyword, effect, rule about cards) has scenarios tagged with it."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import berserk_engine.construction
import berserk_engine.game
import berserk_engine.preparation  # noqa: F401 — registers «Раздача», «Пересдача»
import pytest
from berserk_engine import keywords
from berserk_engine.grammar import load as load_engine
from berserk_engine.grammar import parse_ability, parse_card_text
from berserk_engine.keywords import KEYWORDS, REGAIN_RULES, TERMS

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.features import load_scenarios

ROOT = Path(__file__).resolve().parents[1]
load_engine()  # every keyword module is loaded before the parameters are collected

# The glossary terms of issue 6 that are keywords, constant abilities, modifiers, effects or rules
# about cards, each with the module that implements it — a keyword module of berserk_engine.keywords
# or the core module named after the mechanic (effects, deck, squad, moves …) — (data: a term without
# a module, or a module that does not register its term, fails the test below).
KEYWORD_TERMS: dict[str, str] = {
    "авангард-х": "keywords.vanguard",
    "броня-х": "keywords.armour",
    "выстрел-на-х": "keywords.shot",
    "гнев": "keywords.wrath",
    "дополнительные-жизни": "keywords.extra_lives",
    "жизни-карты-текущее-число-жизней": "keywords.extra_lives",
    "жажда-х": "keywords.thirst",
    "жизни-сокращаются-до-х": "keywords.lives_reduced",
    "защита-от-текст": "keywords.protection",
    "игнорировать-особенности-карт": "keywords.ignore_features",
    "игнорировать-защиту": "keywords.ignore_protection",
    "игнорировать-срабатывающую-особенность-целевой-карты": "keywords.ignore_trigger",
    "игнорировать-предотвращение-целевой-карты": "keywords.ignore_prevention",
    "игнорировать-замещение": "keywords.ignore_replacement",
    "игнорировать-особенность-обязывающую-атаковать": "keywords.ignore_obligation",
    "незаживающие-раны": "keywords.unhealing",
    "инкарнация-х": "keywords.incarnation",
    "медитация-х": "keywords.meditation",
    "направленный-удар": "keywords.directed_strike",
    "не-закрывается-после-атаки-не-закрывается-выступая-защитником": "keywords.no_close",
    "не-получает-ран-от-текст": "keywords.no_wounds_from",
    "один-х-раз-за-ход": "keywords.attacks_per_turn",
    "опыт-в-атаке": "keywords.attack_experience",
    "опыт-в-защите": "keywords.defence_experience",
    "отравление-на-х": "keywords.poison",
    "усилить-отравление-на-х": "keywords.poison_boost",
    "первый-удар": "keywords.first_strike",
    "регенерация-х": "keywords.regeneration",
    "рывок": "keywords.haste",
    "сведение-удара-к-х": "keywords.strike_reduction",
    "скрытность": "keywords.stealth",
    "теряет-особенности": "keywords.lose_text",
    "удар-становится-равным-х": "keywords.strike_becomes",
    "уникальность": "keywords.uniqueness",
    "копия-карты": "keywords.uniqueness",
    "уязвимость": "keywords.vulnerability",
    "плюс-х-минус-х-к-атаке": "keywords.attack_bonus",
    "минус-х-от-атаки": "keywords.attack_reduction",
    "предотвращение": "keywords.prevention",
    "эффект-предотвращения": "keywords.prevention",
    "амулет": "keywords.equipment",
    "броня": "keywords.equipment",
    "оружие": "keywords.equipment",
    "экипировка": "keywords.equipment",
    "событие": "keywords.event_card",
    "орда": "keywords.horde",
    "название-карты": "construction",
    "минимальная-стоимость": "cards",
    "единение-х": "keywords.unity",
    "раздача": "preparation",
    "пересдача": "preparation",
    "излечить-излечение-на-х": "effects",
    "полностью-излечить": "effects",
    "возьмите-карту": "effects",
    "получает-текст-получает-особенность": "effects",
    "уничтожить-карту": "effects",
    "сбросьте-карту": "effects",
    "на-один-на-х-ходов-игрока": "characteristics",
    "при-атаке-при-ударе": "phrases",
    "при-гибели-при-уничтожении": "phrases",
    "сразиться-с-выбранным-существом": "combat",
    "эффект-замещения": "replacement",
    "поиск-карта-карты": "deck",
    "перемешивание-колоды": "deck",
    "вызов-вызвать": "squad",
    "возрождение-возродить": "squad",
    "возьмите-под-контроль-х": "squad",
    "вернуть-убрать-в-колоду": "moves",
    "убрать-положить-поместить-на-кладбище": "moves",
    "вскрытие-карты": "faces",
}


def test_every_keyword_term_has_its_module() -> None:
    keywords.load_all()
    load_engine()
    for term, module in KEYWORD_TERMS.items():
        importlib.import_module(f"berserk_engine.{module}")
        assert TERMS.get(term) == f"berserk_engine.{module}", f"{term}: {TERMS.get(term)} вместо {module}"


def test_every_registered_term_is_a_glossary_term() -> None:
    keywords.load_all()
    load_engine()
    glossary = {e.id for e in load_corpus(ROOT).entries if e.kind == "term"}
    assert set(TERMS) <= glossary, sorted(set(TERMS) - glossary)


def test_every_keyword_module_registers_a_term() -> None:
    keywords.load_all()
    modules = {
        f"berserk_engine.keywords.{info.name}"
        for info in pkgutil.iter_modules(keywords.__path__)
        if not info.name.startswith("_")
    }
    assert modules <= set(TERMS.values()), sorted(modules - set(TERMS.values()))


def test_every_registered_term_has_scenarios() -> None:
    """A keyword, effect or rule the engine registers is proved by scenarios tagged @term-<id>."""
    keywords.load_all()
    load_engine()
    tagged = {term for ref in load_scenarios(ROOT) for term in ref.terms}
    missing = sorted(set(TERMS) - tagged)
    assert not missing, f"термины без сценариев: {missing}"


@pytest.mark.parametrize("term", sorted(KEYWORDS))
def test_keyword_rules_are_data(term: str) -> None:
    kw = KEYWORDS[term]
    assert kw.regain in REGAIN_RULES
    ability = parse_ability(kw.example)
    assert ability.keyword == term
    if not kw.zero_declarable:
        assert "{x" in kw.phrase, f"{term}: «Х 0 нельзя заявить» у ключевого слова без Х"


ZERO_NOT_DECLARABLE = {
    "регенерация-х",
    "отравление-на-х",
    "жажда-х",
    "медитация-х",
    "инкарнация-х",
    "единение-х",
}
REPLACED_BY_NEW_VALUE = {
    "броня-х",
    "регенерация-х",
    "отравление-на-х",
    "жажда-х",
    "медитация-х",
    "инкарнация-х",
    "авангард-х",
    "единение-х",
}


def test_the_glossary_rules_of_numbered_keywords() -> None:
    """«Х 0 нельзя заявить» and «получив Y, теряет Х» are the keywords' data, as the glossary says."""
    keywords.load_all()
    assert {t for t, k in KEYWORDS.items() if not k.zero_declarable} >= ZERO_NOT_DECLARABLE
    assert {t for t, k in KEYWORDS.items() if k.regain == "replace"} >= REPLACED_BY_NEW_VALUE
    assert KEYWORDS["уязвимость"].regain == "single"


def test_no_two_steps_say_the_same_thing() -> None:
    """Two step definitions whose patterns differ only in field names match the same sentences:
    pytest-bdd would pick one of them silently (the glossary's and the process's steps once did)."""
    import re

    import berserk_rules.steps.all  # noqa: F401
    from berserk_rules.steps.registry import STEPS

    seen: dict[tuple[str, str], str] = {}
    for step in STEPS:
        shape = re.sub(r"\{\w+(:\w+)?\}", lambda m: "{" + (m.group(1) or "") + "}", step.pattern)
        where = f"{step.module}:{step.line}"
        assert (step.kind, shape) not in seen, f"«{step.pattern}»: {where} и {seen[(step.kind, shape)]}"
        seen[(step.kind, shape)] = where


def test_every_glossary_term_has_scenarios_or_a_reason() -> None:
    """Issue 6: every term of the glossary is either proved by scenarios or marked not testable with
    the reason (rules/editorial.toml → rules/glossary.md «:untestable:»)."""
    corpus = load_corpus(ROOT)
    tagged = {term for ref in load_scenarios(ROOT) for term in ref.terms}
    terms = [e for e in corpus.entries if e.kind == "term"]
    assert len(terms) == 134
    missing = [e.id for e in terms if not e.untestable and e.id not in tagged]
    assert not missing, f"термины без сценариев и без причины: {missing}"
    both = [e.id for e in terms if e.untestable and e.id in tagged]
    assert not both, f"непроверяемые термины со сценариями: {both}"


@pytest.mark.parametrize(
    ("without_coin", "with_coin"),
    [
        (
            "Гибель: Поиск существа стоимостью 2 или менее.",
            "Гибель: Поиск существа стоимостью 2 [Монета] или менее.",
        ),
        (
            "Найм: Поиск 2 существ стоимостью 1 или менее.",
            "Найм: Поиск 2 существ стоимостью 1 [Монета] или менее.",
        ),
    ],
)
def test_search_by_cost_reads_with_or_without_the_coin_sign(without_coin: str, with_coin: str) -> None:
    """«Поиск существа стоимостью Х [Монета] или менее» (the source's wording in «Единение Х») and the
    issue's card text without «[Монета]» are the same search."""
    (plain,) = parse_card_text("Карта", without_coin)
    (coin,) = parse_card_text("Карта", with_coin)
    assert plain.effect == coin.effect
    assert plain.trigger == coin.trigger
    assert type(plain.effect).__name__ == "Search" and plain.effect.max_cost is not None
