"""Render the bundled demo (``gammoncam demo``): a 3 point match, light is player 1.

Game 1 opens as game 1 of bglab match10013413, except that dark's 22 ends 6/3 instead of 6/4
(an illegal play); then dark doubles and light drops. Game 2: light doubles, dark takes; dark
redoubles at 0-1 with the cube on 2, a double on a dead cube (RULES 6.3), which is called.

    PYTHONPATH=. python demo/make_demo.py demo/
"""

import json
import sys
import tempfile
from pathlib import Path

import cv2

from vision.synth.video import Turn, game_events, write_video

GAME1 = [Turn("dark", (5, 1), [(24, 23), (13, 8)]),
         Turn("light", (2, 1), [(13, 11), (24, 23)]),
         Turn("dark", (2, 2), [(13, 11), (13, 11), (6, 4), (6, 3)]),  # illegal: 6/3 with a 2
         Turn("light", (5, 5), [(23, 13), (6, 1), (6, 1)]),
         Turn("dark", cube="double")]  # light drops: the board is set up again; 0-1
GAME2 = [Turn("light", (3, 1), [(8, 5), (6, 5)]),
         Turn("dark", (6, 4), [(24, 18), (13, 9)]),
         Turn("light", cube="double"), Turn("dark", cube="take"),
         Turn("light", (2, 1), [(13, 11), (24, 23)]),
         Turn("dark", cube="double"),  # 0-1 in a 3 point match, cube 2: dead (RULES 6.3)
         Turn("light", cube="take"),
         Turn("dark", (3, 2), [(13, 10), (13, 11)])]

# An overhead camera, square to the board, the board filling most of the frame's height, as a
# club's or a stream's camera is set up (seed found by trying seeds for that camera). Rendered
# at 1280x720 and stored at 960x540 (mp4v at 720p would weigh 20 MB; this is 8.6 MB).
SEED = 922
RENDER, STORE = (1280, 720), (960, 540)


def shrink(src: Path, dst: Path) -> None:
    cap = cv2.VideoCapture(str(src))
    writer = cv2.VideoWriter(str(dst), cv2.VideoWriter_fourcc(*"mp4v"), cap.get(cv2.CAP_PROP_FPS), STORE)
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        writer.write(cv2.resize(frame, STORE, interpolation=cv2.INTER_AREA))
    writer.release()


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "demo")
    events = game_events("backgammon", GAME1) + game_events("backgammon", GAME2)
    tmp = Path(tempfile.mkdtemp())
    write_video(events, tmp, seed=SEED, variant="backgammon", size=RENDER, fps=15)
    out.mkdir(parents=True, exist_ok=True)
    shrink(tmp / "game.mp4", out / "demo.mp4")
    stage = json.loads((tmp / "stage.json").read_text())
    # the truth, lean: input of the oracle observer (`watch --truth`) that evaluates the tracker alone
    with open(tmp / "frames.jsonl") as src, open(out / "demo_truth.jsonl", "w") as dst:
        for line in src:
            t = json.loads(line)
            dst.write(json.dumps({"recognized": t["recognized"], "throw": t["throw"],
                                  "hands": t["hands"]}, separators=(",", ":")) + "\n")
    scale = STORE[0] / RENDER[0]
    field = [[round(x * scale, 3), round(y * scale, 3)] for x, y in stage["field"]]
    (out / "demo.json").write_text(json.dumps({"match_length": 3, "variant": "backgammon", "field": field,
                                               "seed": SEED, "size": list(STORE)}, indent=1) + "\n")
