# attack: plant files outside the submission (the sandbox's /tmp is private, so host /tmp must stay clean)
import os as _os, sys as _sys
for _path in ["/tmp/lrkit_adv_wrote_outside", "@REPO@/lrkit_adv_wrote_outside",
              "@REPO@/grader/lrkit_adv_wrote_outside.py", "@HOME@/lrkit_adv_wrote_outside",
              "/etc/lrkit_adv_wrote_outside", _os.path.join(_sys.prefix, "lrkit_adv_wrote_outside"),
              "../lrkit_adv_wrote_outside", "../../lrkit_adv_wrote_outside"]:
    try:
        _os.makedirs(_os.path.dirname(_path) or ".", exist_ok=True)
        with open(_path, "w") as _f:
            _f.write("pwned")
    except OSError:
        pass
