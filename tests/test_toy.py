"""The bracket-language lab: each claim of the toy script, checked with a fixed seed.

The lab is built from the project's own model, masking function and causal mask, so these
tests also check those pieces: a masking bug or a leaky causal mask moves the numbers.
The whole lab runs once (about 40 s here) and every test reads its results.
"""

import pytest
import torch

from bertforge import toy
from bertforge.cli import main
from bertforge.pretrain.masking import IGNORE

CHANCE = 1 / 8


@pytest.fixture(scope="module")
def lab():
    lines = []
    results = toy.run_lab(seed=0, say=lines.append)
    return results, "\n".join(lines)


def test_language_pairs_every_opener_with_its_closer():
    ids = toy.sentences(50, toy.generator(0, 0))
    assert (ids[:, 0] == toy.CLS).all()
    assert ((ids[:, 2::2] - toy.CLOSE0) == (ids[:, 1::2] - toy.OPEN0)).all()
    broken, labels = toy.broken_sentences(400, toy.generator(0, 1))
    matched = ((broken[:, 2::2] - toy.CLOSE0) == (broken[:, 1::2] - toy.OPEN0)).all(1)
    assert torch.equal(matched.long(), labels)  # broken exactly when a closer is wrong
    assert 0.4 < labels.float().mean() < 0.6


def test_masking_shares_follow_the_recipe(lab):
    shares = lab[0]["masking"]
    assert shares["picked"] == pytest.approx(0.15, abs=0.005)
    assert shares["mask"] == pytest.approx(0.12, abs=0.005)
    assert shares["random"] == pytest.approx(0.015 * 15 / 16, abs=0.002)  # 1 in 16 draws the truth
    assert shares["kept"] == pytest.approx(0.015 + 0.015 / 16, abs=0.002)


def test_masking_never_touches_cls():
    ev = toy.held_out(0, n=500)
    assert (ev["labels"][:, 0] == IGNORE).all() and (ev["inp"][:, 0] == toy.CLS).all()


def test_causal_mask_hides_the_right(lab):
    grids = lab[0]["attention"]["grids"]
    full, causal = grids["bidirectional"], grids["causal"]
    assert (full > 0).all()
    upper = torch.ones_like(causal, dtype=torch.bool).triu(1)
    assert (causal[upper] == 0).all() and (causal[~upper] > 0).all()
    assert torch.allclose(causal.sum(-1), torch.ones(len(causal)))


def test_bidirectional_model_solves_what_has_a_clue(lab):
    b = lab[0]["bidirectional"]
    assert b["visible"] >= 0.9
    assert b["hidden"] < 0.3  # near chance (1/8): no clue, no answer
    assert b["visible"] - b["hidden"] > 0.6
    assert b["loss_last"] < b["loss_first"] / 5


def test_causal_model_cannot_see_the_clue_on_the_right(lab):
    c = lab[0]["causal"]
    assert c["causal_closers"] >= 0.9
    assert c["causal_openers"] < 0.3
    assert c["bidirectional_openers"] >= 0.9 and c["bidirectional_closers"] >= 0.9


def test_always_mask_recipe_fails_on_visible_tokens(lab):
    r = lab[0]["recipes"]
    assert r["always_mask"] == pytest.approx(r["standard_mask"], abs=0.05)
    assert r["standard_kept"] - r["always_kept"] > 0.3
    assert r["standard_random"] - r["always_random"] > 0.2


def test_picking_half_hides_the_clues_too(lab):
    r = lab[0]["recipes"]
    assert r["half_on_50_intact"] >= 0.9  # the rule is learned...
    assert r["half_on_50"] < 0.75  # ...but half the blanks lost their clue
    assert 0.4 < r["half_intact_share"] < 0.7


def test_picking_nothing_learns_nothing(lab):
    r = lab[0]["recipes"]
    assert r["none_loss_max"] == 0.0
    assert r["none_accuracy"] < 0.25


def test_finetuning_needs_pretraining_and_all_parameters(lab):
    f = lab[0]["finetune"]
    assert f["frozen"] == pytest.approx(0.5, abs=0.08)
    assert f["full"] >= 0.9
    assert f["random"] == pytest.approx(0.5, abs=0.08)
    assert f["frozen_parameters"] < 100 < f["full_parameters"] == f["random_parameters"]


def test_report_explains_each_demonstration(lab):
    text = lab[1]
    for n in range(1, 7):
        assert f"\n{n}. " in text
    assert "sees  1 of 17" in text and "sees 17 of 17" in text


def test_same_seed_same_numbers():
    a = toy.pretrain(5, 3, steps=40)[1]
    b = toy.pretrain(5, 3, steps=40)[1]
    c = toy.pretrain(6, 3, steps=40)[1]
    assert a == b and a != c


def test_plots_one_png_per_demonstration(lab, tmp_path):
    paths = toy.plot_lab(lab[0], tmp_path)
    assert [p.name for p in paths] == ["1-masking.png", "2-attention.png", "3-bidirectional.png",
                                       "4-causal.png", "5-recipes.png", "6-finetune.png"]
    assert all(p.stat().st_size > 5000 for p in paths)


def test_cli_refuses_too_few_steps(capsys):
    assert main(["toy", "--steps", "3"]) == 2
    assert "--steps 3 is too few" in capsys.readouterr().err
