"""Unpacking submissions. Each fixture is built in tmp_path by a helper named after the fault it holds."""
from __future__ import annotations

import os
import stat
import struct
import zipfile
from pathlib import Path

import pytest

from grader.grading.unpack import (
    SubmissionError,
    Unpacked,
    content_hash,
    unpack_submission,
)

ALLOWED = ["linear_attention.py", "linear_attention.ipynb"]
MODULE = b"def feature_map(x):\n    return x\n"


def make_zip(path: Path, files: dict[str, bytes], *, symlinks: dict[str, str] | None = None) -> Path:
    symlinks = symlinks or {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
        for name, target in symlinks.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


def make_folder(path: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    return path


def zip_slip(tmp: Path) -> Path:
    return make_zip(tmp / "zip_slip.zip", {"linear_attention.py": MODULE, "../../evil.py": b"pwned"})


def absolute_path(tmp: Path) -> Path:
    return make_zip(tmp / "absolute_path.zip", {"/etc/cron.d/evil": b"pwned"})


def symlink_entry(tmp: Path) -> Path:
    return make_zip(tmp / "symlink_entry.zip", {"linear_attention.py": MODULE},
                    symlinks={"answers.py": "../../assignments/linear-attention-basics/hidden/verdicts.py"})


def zip_bomb(tmp: Path) -> Path:
    return make_zip(tmp / "zip_bomb.zip", {"linear_attention.py": MODULE, "zeros.bin": bytes(60_000_000)})


def lying_zip_bomb(tmp: Path) -> Path:
    """A zip whose headers declare 1 KB for an entry that inflates to 60 MB."""
    path = make_zip(tmp / "bomb.zip", {"linear_attention.py": MODULE, "linear_attention.ipynb": bytes(60_000_000)})
    data = bytearray(path.read_bytes())
    for signature, size_offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            name_len = struct.unpack_from("<H", data, start + (26 if signature == b"PK\x03\x04" else 28))[0]
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at:name_at + name_len] == b"linear_attention.ipynb":
                struct.pack_into("<I", data, start + size_offset, 1024)
            start += 4
    lying = tmp / "lying_zip_bomb.zip"
    lying.write_bytes(bytes(data))
    return lying


def too_many_files(tmp: Path) -> Path:
    return make_zip(tmp / "too_many_files.zip", {f"data/{i}.txt": b"x" for i in range(30)})


def nested_top_folder(tmp: Path) -> Path:
    return make_zip(tmp / "nested_top_folder.zip", {
        "linear-attention-basics/linear_attention.py": MODULE,
        "linear-attention-basics/linear_attention.ipynb": b"{}",
        "linear-attention-basics/tests/test_linear_attention.py": b"",
        "__MACOSX/linear-attention-basics/._linear_attention.py": b"junk",
    })


def only_changed_files(tmp: Path) -> Path:
    return make_zip(tmp / "only_changed_files.zip", {"linear_attention.py": MODULE})


def whole_template_tree(tmp: Path) -> Path:
    return make_folder(tmp / "whole_template_tree", {
        "linear_attention.py": MODULE,
        "linear_attention.ipynb": b"{}",
        "tests/test_linear_attention.py": b"def test_x(): pass\n",
        "conftest.py": b"import os; os.system('echo pwned')\n",
        "sitecustomize.py": b"print('pwned')\n",
        "evil.pth": b"import os; os.system('echo pwned')\n",
        "torch/__init__.py": b"allclose = lambda *a, **k: True\n",
        "numpy.py": b"",
        ".ipynb_checkpoints/linear_attention-checkpoint.ipynb": b"{}",
        "__pycache__/linear_attention.cpython-311.pyc": b"\0",
    })


@pytest.mark.parametrize("fixture, words", [
    (zip_slip, "'..'"),
    (absolute_path, "absolute"),
    (symlink_entry, "symbolic link"),
    (zip_bomb, "limit"),
    (lying_zip_bomb, "linear_attention.ipynb"),
])
def test_hostile_zip_is_refused_and_nothing_escapes(tmp_path, fixture, words):
    """Is each hostile archive refused with a message naming the problem, writing nothing outside dest?"""
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    src = fixture(work)
    with pytest.raises(SubmissionError, match=words) as info:
        unpack_submission(src, work / "out", allowed=ALLOWED, max_bytes=10_000_000)
    assert str(info.value)
    assert not (tmp_path / "evil.py").exists() and not (tmp_path / "a" / "evil.py").exists()


def test_too_many_files(tmp_path):
    """Is a submission with more files than max_files refused, with the count in the message?"""
    with pytest.raises(SubmissionError, match="30 files"):
        unpack_submission(too_many_files(tmp_path), tmp_path / "out", allowed=None, max_files=20)


def test_nested_top_folder_is_stripped(tmp_path):
    """Does a zip of `linear-attention-basics/...` unpack as if zipped from inside the folder?"""
    result = unpack_submission(nested_top_folder(tmp_path), tmp_path / "out", allowed=ALLOWED)
    assert result.files == ("linear_attention.ipynb", "linear_attention.py")
    assert (tmp_path / "out" / "linear_attention.py").read_bytes() == MODULE
    assert "tests/test_linear_attention.py" in result.ignored
    assert not (tmp_path / "out" / "tests").exists()


def test_only_changed_files(tmp_path):
    """Is a zip holding just the student module accepted as it is?"""
    result = unpack_submission(only_changed_files(tmp_path), tmp_path / "out", allowed=ALLOWED)
    assert result == Unpacked(root=tmp_path / "out", files=("linear_attention.py",), ignored=(), notes=())


def test_whole_template_tree_keeps_student_files_and_explains_the_rest(tmp_path):
    """Are conftest.py, sitecustomize.py, .pth files and shadow modules left out, each with a reason?"""
    result = unpack_submission(whole_template_tree(tmp_path), tmp_path / "out", allowed=ALLOWED)
    assert result.files == ("linear_attention.ipynb", "linear_attention.py")
    assert sorted(os.listdir(tmp_path / "out")) == ["linear_attention.ipynb", "linear_attention.py"]
    for path in ["conftest.py", "sitecustomize.py", "evil.pth", "torch/__init__.py", "numpy.py"]:
        assert path in result.ignored
    notes = "\n".join(result.notes)
    assert "conftest.py was ignored: pytest" in notes
    assert "shadow the installed module 'torch'" in notes
    assert len(result.notes) == len(result.ignored)


def test_dangerous_files_are_ignored_even_without_an_allow_list(tmp_path):
    """With allowed=None, are the start-up hooks still left out while other files are kept?"""
    result = unpack_submission(whole_template_tree(tmp_path), tmp_path / "out", allowed=None)
    assert "tests/test_linear_attention.py" in result.files and "conftest.py" in result.ignored
    assert "evil.pth" in result.ignored and "sitecustomize.py" in result.ignored


def test_glob_patterns_stay_inside_one_folder(tmp_path):
    """Does `*.py` match top-level files only, and `data/**` everything under data/?"""
    src = make_folder(tmp_path / "src", {"a.py": b"", "sub/b.py": b"", "data/x/y.csv": b"1"})
    result = unpack_submission(src, tmp_path / "out", allowed=["*.py", "data/**"])
    assert result.files == ("a.py", "data/x/y.csv") and result.ignored == ("sub/b.py",)


def test_symlink_in_folder_is_refused(tmp_path):
    """Is a folder holding a symlink (to a hidden file, say) refused?"""
    src = make_folder(tmp_path / "src", {"linear_attention.py": MODULE})
    (src / "answers.py").symlink_to("/etc/passwd")
    with pytest.raises(SubmissionError, match="answers.py: symbolic links"):
        unpack_submission(src, tmp_path / "out", allowed=ALLOWED)


def test_fifo_in_folder_is_refused(tmp_path):
    """Is a named pipe (which would block a reader forever) refused?"""
    src = make_folder(tmp_path / "src", {"linear_attention.py": MODULE})
    os.mkfifo(src / "linear_attention.ipynb")
    with pytest.raises(SubmissionError, match="linear_attention.ipynb: only regular files"):
        unpack_submission(src, tmp_path / "out", allowed=ALLOWED)


@pytest.mark.parametrize("name, data", [("homework.rar", b"Rar!\x1a\x07\x00"), ("linear_attention.py", MODULE)])
def test_a_file_that_is_not_a_zip_is_refused(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(SubmissionError, match="folder or a .zip"):
        unpack_submission(tmp_path / name, tmp_path / "out", allowed=ALLOWED)


def test_destination_must_be_fresh(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "stale.json").write_text("{}")
    with pytest.raises(ValueError, match="not empty"):
        unpack_submission(only_changed_files(tmp_path), tmp_path / "out", allowed=ALLOWED)


def test_content_hash_depends_on_paths_and_bytes_only(tmp_path):
    """Do a zip and a folder with the same files hash alike, and does one changed byte change the hash?"""
    a = unpack_submission(only_changed_files(tmp_path), tmp_path / "a", allowed=ALLOWED)
    b = unpack_submission(make_folder(tmp_path / "src", {"linear_attention.py": MODULE}), tmp_path / "b",
                          allowed=ALLOWED)
    assert content_hash(a.root) == content_hash(b.root)
    (b.root / "linear_attention.py").write_bytes(MODULE + b"\n")
    assert content_hash(a.root) != content_hash(b.root)
