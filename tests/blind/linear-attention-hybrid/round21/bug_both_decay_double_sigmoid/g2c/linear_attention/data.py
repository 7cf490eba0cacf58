"""Data for the exercises: a small license-clean story corpus, a character tokenizer, an optional
real TinyStories file, and the synthetic key-value recall task.

Nothing is downloaded. `load_corpus()` reads the file named by $LRKIT_TINYSTORIES (or a `path`)
when you have one, and otherwise generates stories from a fixed-seed template grammar written
for this kit (public domain), so every run sees the same text.

TinyStories (Eldan and Li, 2023; CDLA-Sharing-1.0) is at
https://huggingface.co/datasets/roneneldan/TinyStories. `TinyStoriesV2-GPT4-valid.txt` (22.5 MB)
is plenty for these exercises; the training files are about 2 GB, of which `load_corpus` reads only
the first `max_chars` characters.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import torch

NAMES = ["Lily", "Tom", "Mia", "Ben", "Sara", "Max", "Anna", "Sam", "Lucy", "Jack", "Zoe", "Leo", "Emma", "Finn"]
ANIMALS = ["cat", "dog", "bird", "frog", "bunny", "duck", "fox", "bear", "mouse", "puppy", "owl", "fish"]
PLACES = ["park", "garden", "forest", "beach", "farm", "river", "hill", "kitchen", "school", "pond"]
THINGS = ["ball", "kite", "hat", "box", "cake", "book", "boat", "flower", "stone", "drum", "cup", "shell"]
COLORS = ["red", "blue", "green", "yellow", "big", "small", "shiny", "soft", "little", "old"]
FEELINGS = ["happy", "sad", "scared", "excited", "tired", "proud", "surprised", "angry"]
OPENINGS = ["Once upon a time, there was a {adj} {animal} named {name}.",
            "One day, {name} went to the {place}.",
            "There was a little {animal} who lived near the {place}.",
            "{name} had a {color} {thing}. {pronoun} loved it very much."]
MIDDLES = ["{name} saw a {color} {thing} under a tree.",
           "{name} wanted to play with the {thing}, but it was too high.",
           "The {animal} said, \"Can I play too?\"",
           "{name} felt {feeling} because the {thing} was lost.",
           "They looked for the {thing} in the {place} all day.",
           "A friendly {animal2} came to help {name}.",
           "{pronoun} shared the {thing} with the {animal}.",
           "It started to rain, so they ran home to the {place}."]
ENDINGS = ["In the end, {name} and the {animal} were {feeling2} and played together.",
           "{name} learned that sharing makes everyone happy.",
           "From that day on, {name} always kept the {thing} safe.",
           "They smiled, and the sun came out again.",
           "{name} said, \"Thank you!\" and went to sleep."]


def generate_stories(num_stories: int = 4000, seed: int = 0) -> str:
    """A deterministic corpus of short template stories (about 250 characters each)."""
    rng = random.Random(seed)
    stories = []
    for _ in range(num_stories):
        name = rng.choice(NAMES)
        slots = dict(name=name, animal=rng.choice(ANIMALS), animal2=rng.choice(ANIMALS), place=rng.choice(PLACES),
                     thing=rng.choice(THINGS), color=rng.choice(COLORS), adj=rng.choice(COLORS),
                     feeling=rng.choice(FEELINGS), feeling2=rng.choice(["happy", "proud", "glad"]),
                     pronoun="She" if name in {"Lily", "Mia", "Sara", "Anna", "Lucy", "Zoe", "Emma"} else "He")
        parts = [rng.choice(OPENINGS)] + rng.sample(MIDDLES, rng.randint(2, 4)) + [rng.choice(ENDINGS)]
        stories.append(" ".join(p.format(**slots) for p in parts))
    return "\n".join(stories) + "\n"


def load_corpus(path: str | os.PathLike | None = None, max_chars: int = 2_000_000, num_stories: int = 4000) -> str:
    """Text to train on: `path`, else $LRKIT_TINYSTORIES, else the generated stories."""
    path = path or os.environ.get("LRKIT_TINYSTORIES")
    if path:
        file = Path(path).expanduser()
        if not file.is_file():
            raise FileNotFoundError(f"load_corpus: {file} does not exist (from the argument or $LRKIT_TINYSTORIES)")
        with file.open(encoding="utf-8", errors="replace") as f:
            return f.read(max_chars)
    return generate_stories(num_stories)


class CharTokenizer:
    """Characters to integers; the vocabulary is every character of the training text."""

    def __init__(self, text: str):
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> torch.Tensor:
        unknown = sorted(set(text) - set(self.index))
        if unknown:
            raise ValueError(f"CharTokenizer.encode: characters not in the vocabulary: {unknown[:10]}")
        return torch.tensor([self.index[c] for c in text], dtype=torch.long)

    def decode(self, ids) -> str:
        return "".join(self.chars[int(i)] for i in ids)


def train_val_split(ids: torch.Tensor, val_fraction: float = 0.1) -> tuple[torch.Tensor, torch.Tensor]:
    n = int(len(ids) * (1 - val_fraction))
    return ids[:n], ids[n:]


@dataclass(frozen=True)
class RecallTask:
    """Synthetic key-value recall: `(k1,v1) (k2,v2) ... (kn,vn) | ka (ka,va) kb (kb,vb) ...`.

    The first part writes `num_pairs` associations with distinct keys, each as ONE token that names
    its key and its value (a "pair token": the binding is in the token, so no layer has to assemble
    it from two neighbours). After the separator each query is a bare key token, drawn at random from
    the written keys (with replacement, so that no answer can be found by elimination), and the model
    must produce the pair token that was written with that key: an exact lookup by content. Knowing the
    key leaves `num_values` candidates, so chance is 1 / num_values. The distance of a query is how many
    tokens back its association was written: the quantity the recall curve is plotted against.

    Vocabulary: key tokens 0 .. K-1, pair token (k, v) = K + k·V + v, then the separator.
    """

    num_keys: int = 32
    num_values: int = 8
    num_pairs: int = 24
    num_queries: int = 16

    def pair_token(self, key, value):
        return self.num_keys + key * self.num_values + value

    @property
    def separator(self) -> int:
        return self.num_keys * (1 + self.num_values)

    @property
    def vocab_size(self) -> int:
        return self.separator + 1

    @property
    def seq_len(self) -> int:
        return self.num_pairs + 1 + 2 * self.num_queries

    def batch(self, batch_size: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """tokens (B, L), answer mask (B, L) marking positions whose NEXT token is a pair to recall,
        and distance (B, L) from that position back to where the pair was written."""
        P, Q = self.num_pairs, self.num_queries
        keys = torch.rand(batch_size, self.num_keys, generator=generator).argsort(dim=1)[:, :P]  # (B, P) distinct
        values = torch.randint(0, self.num_values, (batch_size, P), generator=generator)
        pairs = self.pair_token(keys, values)  # (B, P)
        which = torch.randint(0, P, (batch_size, Q), generator=generator)  # (B, Q) pairs to query
        tokens = torch.empty(batch_size, self.seq_len, dtype=torch.long)
        tokens[:, :P] = pairs
        tokens[:, P] = self.separator
        q_pos = P + 1 + 2 * torch.arange(Q)  # where each query key sits
        tokens[:, q_pos] = keys.gather(1, which)
        tokens[:, q_pos + 1] = pairs.gather(1, which)
        mask = torch.zeros(batch_size, self.seq_len, dtype=torch.bool)
        mask[:, q_pos] = True
        distance = torch.zeros(batch_size, self.seq_len, dtype=torch.long)
        distance[:, q_pos] = q_pos - which
        return tokens, mask, distance
