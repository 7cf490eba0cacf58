"""The notebook runner's kernel client (`inside/nbrunner.py` ReadyClient) is ready as soon as
the kernel has answered, and still never starts on a kernel whose IOPub it cannot hear.

jupyter_client's own wait pauses 0.2 s for IOPub to say something and 0.2 s more for it to fall
silent; ours waits for the 'idle' status of its own kernel_info request instead. Faked channels
play the kernel: a reply on the shell channel, statuses on IOPub, lost or late as ZeroMQ may.
"""
from __future__ import annotations

import asyncio
import importlib.util
import os
from pathlib import Path
from queue import Empty

import pytest

NBRUNNER = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "inside" / "nbrunner.py"


@pytest.fixture(scope="module")
def ready_client():
    r, w = os.pipe()
    os.environ["LRKIT_CHANNEL_FD"] = str(w)  # read (and removed) by the runner at import
    try:
        spec = importlib.util.spec_from_file_location("lrkit_nbrunner_under_test", NBRUNNER)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        os.environ.pop("LRKIT_CHANNEL_FD", None)
        os.close(r)
        os.close(w)
    return module.ReadyClient


class Channel:
    def __init__(self):
        self.queue = []

    async def get_msg(self, timeout=None):
        if not self.queue:
            await asyncio.sleep(timeout or 0)
            raise Empty
        return self.queue.pop(0)


class FakeKernel:
    """Answers every kernel_info request on shell; ``deaf`` requests get no IOPub status (a
    subscriber that joined too late); ``stale`` puts an earlier request's messages first."""

    def __init__(self, deaf=0, alive=True, answers=True, stale=False):
        self.shell_channel, self.iopub_channel = Channel(), Channel()
        self.asked, self.deaf, self.alive, self.answers, self.handled = 0, deaf, alive, answers, []
        if stale:
            self.shell_channel.queue.append(self._msg("old", "kernel_info_reply", {}))
            self.iopub_channel.queue.append(self._msg("old", "status", {"execution_state": "idle"}))

    @staticmethod
    def _msg(parent, kind, content):
        return {"parent_header": {"msg_id": parent}, "msg_type": kind, "content": content}

    def kernel_info(self):
        self.asked += 1
        msg_id = f"req{self.asked}"
        if self.answers:
            self.shell_channel.queue.append(self._msg(msg_id, "kernel_info_reply", {"status": "ok"}))
            if self.asked > self.deaf:
                self.iopub_channel.queue += [self._msg(msg_id, "status", {"execution_state": "busy"}),
                                             self._msg(msg_id, "status", {"execution_state": "idle"})]
        return msg_id

    def _handle_kernel_info_reply(self, msg):
        self.handled.append(msg["parent_header"]["msg_id"])

    async def _async_is_alive(self):
        return self.alive


def wait(client_class, kernel, timeout):
    return asyncio.run(client_class._async_wait_for_ready(kernel, timeout=timeout))


def test_ready_after_one_answered_request(ready_client):
    kernel = FakeKernel()
    wait(ready_client, kernel, 10)
    assert kernel.asked == 1 and kernel.handled == ["req1"]


def test_a_status_lost_to_a_late_subscriber_is_asked_for_again(ready_client):
    kernel = FakeKernel(deaf=1)
    wait(ready_client, kernel, 10)
    assert kernel.asked == 2 and kernel.handled == ["req1", "req2"]


def test_an_earlier_requests_messages_do_not_make_it_ready(ready_client):
    kernel = FakeKernel(deaf=1, stale=True)
    wait(ready_client, kernel, 10)
    assert kernel.asked == 2 and "old" not in kernel.handled


def test_a_kernel_that_died_is_reported_not_waited_for(ready_client):
    with pytest.raises(RuntimeError, match="died"):
        wait(ready_client, FakeKernel(answers=False, alive=False), 30)


def test_a_silent_kernel_times_out(ready_client):
    kernel = FakeKernel(answers=False)
    with pytest.raises(RuntimeError, match="didn't respond"):
        wait(ready_client, kernel, 1.2)
    assert kernel.asked >= 2  # it kept asking meanwhile
