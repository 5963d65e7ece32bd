"""Class names and task stored in a checkpoint: python names.py MODEL.pt -> {"task", "names": [...]}."""
import json
import sys

from ultralytics import YOLO

m = YOLO(sys.argv[1])
print(json.dumps({"task": m.task, "names": [m.names[i] for i in sorted(m.names)]}))
