"""Training examples from documents: sentence pairs for next-sentence prediction, or
packed full-length rows for masked LM alone.

A document is a list of sentences, each a list of token ids (no special tokens).

Pairs follow Google's `create_pretraining_data.py`. Sentences are gathered until they
fill a target length (the maximum, or with a 10% chance a shorter one, so the model
also sees short inputs); the gathered chunk is cut at a random sentence boundary into A
and B. Half the time B is the real continuation (IsNext, label 0); half the time B is
a span from another document (NotNext, label 1), and the sentences of the chunk that B
would have used go back to be read again, so no text is wasted. We don't fill the
sequence with as much text as fits regardless of sentences, because then the
"random" B would start mid-sentence and NSP would become a task about punctuation.

One departure: Google's code makes a one-sentence chunk always NotNext, which skews
the shares toward NotNext on corpora of short paragraphs; here the coin decides first,
and an IsNext chunk of one sentence is split inside the sentence.

Packing (RoBERTa's "full sentences") concatenates documents, a [SEP] between them, and
cuts the stream into rows of exactly `max_length` tokens: no padding, no NSP.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Iterator

Document = list[list[int]]


def pairs_from_document(
    document: Document,
    max_length: int,
    rng: random.Random,
    random_document: Callable[[], Document],
    cls_id: int,
    sep_id: int,
    short_seq_prob: float = 0.1,
) -> list[dict]:
    """NSP examples from one document: dicts with input_ids, token_type_ids and
    next_sentence_label (0 = B follows A, 1 = B is from elsewhere)."""
    document = [s for s in document if s]
    max_tokens = max_length - 3  # [CLS] A [SEP] B [SEP]
    if max_tokens < 2:
        raise ValueError(f"max_length {max_length} leaves no room for a pair")
    target = max_tokens
    if rng.random() < short_seq_prob:
        target = rng.randint(2, max_tokens)

    examples = []
    chunk: list[list[int]] = []
    length = 0
    i = 0
    while i < len(document):
        chunk.append(document[i])
        length += len(document[i])
        if i == len(document) - 1 or length >= target:
            random_next = rng.random() < 0.5
            if random_next:
                a_end = rng.randint(1, len(chunk) - 1) if len(chunk) >= 2 else 1
                tokens_a = [t for s in chunk[:a_end] for t in s]
                tokens_b = _span_from(random_document(), max(1, target - len(tokens_a)), rng)
                i -= len(chunk) - a_end  # the unused sentences are read again
            elif len(chunk) >= 2:
                a_end = rng.randint(1, len(chunk) - 1)
                tokens_a = [t for s in chunk[:a_end] for t in s]
                tokens_b = [t for s in chunk[a_end:] for t in s]
            else:  # one sentence: the real continuation is its own second half
                sentence = chunk[0]
                if len(sentence) < 2:
                    tokens_a = tokens_b = []
                else:
                    cut = rng.randint(1, len(sentence) - 1)
                    tokens_a, tokens_b = sentence[:cut], sentence[cut:]
            _truncate_pair(tokens_a, tokens_b, max_tokens, rng)
            if tokens_a and tokens_b:
                examples.append({
                    "input_ids": [cls_id] + tokens_a + [sep_id] + tokens_b + [sep_id],
                    "token_type_ids": [0] * (len(tokens_a) + 2) + [1] * (len(tokens_b) + 1),
                    "next_sentence_label": int(random_next),
                })
            chunk, length = [], 0
        i += 1
    return examples


def _span_from(document: Document, target: int, rng: random.Random) -> list[int]:
    """Sentences of another document from a random start, until `target` tokens."""
    document = [s for s in document if s]
    if not document:
        return []
    tokens: list[int] = []
    for sentence in document[rng.randint(0, len(document) - 1):]:
        tokens.extend(sentence)
        if len(tokens) >= target:
            break
    return tokens


def _truncate_pair(a: list[int], b: list[int], max_tokens: int, rng: random.Random) -> None:
    """Shorten the longer side, one token at a time, from a random end (so the model
    does not learn that sentences always end, or always start, in one place)."""
    while len(a) + len(b) > max_tokens:
        longer = a if len(a) > len(b) else b
        if rng.random() < 0.5:
            del longer[0]
        else:
            longer.pop()


def pack(documents: Iterable[list[int]], max_length: int, cls_id: int,
         sep_id: int) -> Iterator[list[int]]:
    """Rows of exactly `max_length` tokens: [CLS] + stream + [SEP], the stream being the
    documents joined by [SEP]. The last, short, piece of the stream is dropped."""
    body = max_length - 2
    if body < 1:
        raise ValueError(f"max_length {max_length} leaves no room for text")
    stream: list[int] = []
    for document in documents:
        if not document:
            continue
        if stream:
            stream.append(sep_id)
        stream.extend(document)
        while len(stream) >= body:
            yield [cls_id] + stream[:body] + [sep_id]
            del stream[:body]
