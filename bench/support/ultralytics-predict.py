"""The ultralytics side of bench/predict-yolov8n.bench.ts (ADR 0041), run with the real client (../shared/clients).

python ultralytics-predict.py WORK_DIR IMAGE REQUESTS

Builds the seeded untrained YOLOv8n detector and YOLOv8n-cls classifier from their YAML (no pretrained weights
exist offline), saves each .pt, exports the detector to a static and a dynamic ONNX and the classifier to a static
one (what the server's export jobs would make), then times `YOLO(pt).predict(IMAGE)` with 2 torch threads at its
defaults (rect=True: the detector sees the letterboxed rectangle). Prints one JSON line.
"""
import json
import shutil
import sys
import time
from pathlib import Path

import torch
from ultralytics import YOLO
from ultralytics.data.augment import classify_transforms

work, image, requests = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
work.mkdir(parents=True, exist_ok=True)
torch.set_num_threads(2)


def build(yaml, name):
    torch.manual_seed(0)
    pt = work / f"{name}.pt"
    YOLO(yaml).save(str(pt))
    return pt


def export(pt, name, imgsz, dynamic):
    dst = work / f"{name}.pt"
    shutil.copy(pt, dst)
    out = YOLO(str(dst)).export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=dynamic, verbose=False)
    return str(out)


def timed(pt, imgsz):
    model = YOLO(str(pt))
    if model.task == "classify" and not hasattr(model.model, "transforms"):
        # a trained classifier's checkpoint carries its transforms (the trainer sets them); one built from YAML does not
        model.model.transforms = classify_transforms(imgsz)
    shapes = []
    for _ in range(5):
        model.predict(image, imgsz=imgsz, device="cpu", verbose=False)
    pre = model.predictor.preprocess

    def spy(im):
        t = pre(im)
        shapes.append(list(t.shape[2:]))
        return t

    model.predictor.preprocess = spy
    torch.set_num_threads(2)  # the export and the predictor's setup may change it
    lat = []
    for _ in range(requests):
        t = time.perf_counter()
        model.predict(image, imgsz=imgsz, device="cpu", verbose=False)
        lat.append((time.perf_counter() - t) * 1000)
    lat.sort()
    return {"p50Ms": lat[len(lat) // 2], "inputHw": shapes[0], "threads": torch.get_num_threads()}


det = build("yolov8n.yaml", "yolov8n-seed0")
cls = build("yolov8n-cls.yaml", "yolov8n-cls-seed0")
files = {
    "detectStatic": export(det, "yolov8n-static", 640, False),
    "detectDynamic": export(det, "yolov8n-dynamic", 640, True),
    "classifyStatic": export(cls, "yolov8n-cls-static", 224, False),
}
print(json.dumps({"version": __import__("ultralytics").__version__, "files": files,
                  "detect": timed(det, 640), "classify": timed(cls, 224)}))
