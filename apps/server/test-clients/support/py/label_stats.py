"""Label statistics as the client's own training loader reads them: python label_stats.py DATA... ->
one JSON line per DATA (a dataset zip or a data.yaml): {"data", "names", "splits": {split: {"images",
"unlabelled", "per_class": [instances per class id]}}}. check_det_dataset unzips a zip as `yolo train
data=x.zip` does; YOLODataset is the loader training builds (its label scan and cache)."""
import json
import sys

from ultralytics.data.dataset import YOLODataset
from ultralytics.data.utils import check_det_dataset

for arg in sys.argv[1:]:
    data = check_det_dataset(arg)
    names = [data["names"][i] for i in sorted(data["names"])]
    splits, seen = {}, set()
    for split in ("train", "val", "test"):
        if not data.get(split) or str(data[split]) in seen:
            continue
        seen.add(str(data[split]))
        ds = YOLODataset(img_path=data[split], data=data, task="detect", imgsz=32, augment=False, cache=False)
        per_class = [0] * len(names)
        unlabelled = 0
        for label in ds.labels:
            cls = [int(c) for c in label["cls"].reshape(-1).tolist()]
            unlabelled += 0 if cls else 1
            for c in cls:
                per_class[c] += 1
        splits[split] = {"images": len(ds.labels), "unlabelled": unlabelled, "per_class": per_class}
    print(json.dumps({"data": arg, "names": names, "splits": splits}))
