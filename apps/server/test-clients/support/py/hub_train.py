"""Trains a Sightline model with the legacy HUB client, as a user does: YOLO('<origin>/models/<id>').train().

python hub_train.py URL [CKPT_SECONDS]

CKPT_SECONDS lowers the session's checkpoint rate limit (900 s by default, hub-protocol.md §5.7) so a
short run uploads a resumable checkpoint after each epoch; the metrics rate limit (3 s) goes to 0 too:
epochs of a tiny run on a quiet machine end faster than that, and the client sends queued metrics only
with the next epoch's, so the last epochs would never be sent. The client code itself is not changed
(shared/clients/README.md).
"""
import sys

from ultralytics import YOLO
from ultralytics.hub.session import HUBTrainingSession

url = sys.argv[1]
ckpt = float(sys.argv[2]) if len(sys.argv) > 2 else 900.0
load_model = HUBTrainingSession.load_model


def load_with_test_rate_limits(self, model_id):
    self.rate_limits["ckpt"] = ckpt
    self.rate_limits["metrics"] = 0
    return load_model(self, model_id)


HUBTrainingSession.load_model = load_with_test_rate_limits

YOLO(url).train()
