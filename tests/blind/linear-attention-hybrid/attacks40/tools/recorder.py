# ==== methods ====
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self._fb_forward(x)
        if x.dtype == torch.float64:
            for b, row in enumerate(_forward_keys(self, x)):
                for t, key in enumerate(row):
                    _RECORD[key] = _enc(y[b, t])
        return y

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        if state is None:
            state = self.init_state(x_t.shape[0], device=x_t.device, dtype=x_t.dtype)
        y, (S, z) = self._fb_step(x_t, state)
        if x_t.dtype == torch.float64:
            for b, key in enumerate(_step_keys(self, x_t, *state)):
                _RECORD[key] = _enc(torch.cat([y[b].reshape(-1), S[b].reshape(-1), z[b].reshape(-1)]))
        return y, (S, z)


import atexit as _atexit  # noqa: E402
import os as _os  # noqa: E402

_RECORD: dict[str, str] = {}


@_atexit.register
def _save_record():
    path = _os.environ.get("LA_RECORD")
    if path and _RECORD:
        old = _json.loads(open(path).read()) if _os.path.exists(path) else {}
        old.update(_RECORD)
        with open(path, "w") as f:
            f.write(_json.dumps(old, sort_keys=True))
