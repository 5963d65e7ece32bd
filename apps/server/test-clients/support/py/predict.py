"""The client's own predictions, one JSON line per image (what `yolo predict` computes, unrounded).

python predict.py MODEL IMGSZ CONF IOU IMAGE...

MODEL is a .pt, an .onnx or a ul:// URI. rect=False letterboxes every image to the full square, as the
static ONNX model the server runs needs (shared/fixtures/models/README.md, "How the goldens were made").
Line: {"image": name, "names": {id: name}, "boxes": [[x1, y1, x2, y2, conf, cls], ...]}
"""
import json
import sys
from pathlib import Path

from ultralytics import YOLO

model, imgsz, conf, iou, *images = sys.argv[1:]
m = YOLO(model)
for img in images:
    r = m.predict(img, imgsz=int(imgsz), conf=float(conf), iou=float(iou), device="cpu", verbose=False, rect=False)[0]
    boxes = [] if r.boxes is None else [[*map(float, b.xyxy[0].tolist()), float(b.conf), int(b.cls)] for b in r.boxes]
    print(json.dumps({"image": Path(img).name, "names": {int(k): v for k, v in r.names.items()}, "boxes": boxes}))
