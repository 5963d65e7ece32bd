"""The client's own predictions, one JSON line per image (what `yolo predict` computes, unrounded).

python predict.py MODEL IMGSZ CONF IOU IMAGE...

MODEL is a .pt, an .onnx or a ul:// URI. Predict's own default input (rect=True: the long side to imgsz, the short
side padded to a multiple of the stride), which the server runs too: its export jobs make dynamic ONNX files
(docs/adr/0041-rectangular-inference-and-a-lean-classify-path.md).
Line: {"image": name, "names": {id: name}, "boxes": [[x1, y1, x2, y2, conf, cls], ...]}
"""
import json
import sys
from pathlib import Path

from ultralytics import YOLO

model, imgsz, conf, iou, *images = sys.argv[1:]
m = YOLO(model)
for img in images:
    r = m.predict(img, imgsz=int(imgsz), conf=float(conf), iou=float(iou), device="cpu", verbose=False)[0]
    boxes = [] if r.boxes is None else [[*map(float, b.xyxy[0].tolist()), float(b.conf), int(b.cls)] for b in r.boxes]
    print(json.dumps({"image": Path(img).name, "names": {int(k): v for k, v in r.names.items()}, "boxes": boxes}))
