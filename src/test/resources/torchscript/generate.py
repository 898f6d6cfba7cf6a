"""Regenerates the TorchScript archives (torch.jit.save) and the torch.export archive (torch.export.save,
.pt2) that TorchScriptTest reads, and expected.json, the state-dict names, shapes, dtypes and non-zero
counts that torch itself reports for each on load.

    pip install --target /tmp/pyt torch   # any torch 2.x; these were written by 2.13.0+cpu
    PYTHONPATH=/tmp/pyt python3 generate.py

torch.jit.save and torch.export.save write a random .data/serialization_id, so the archives differ
byte for byte from run to run; their tensors (seeded) and expected.json do not.
"""
import json

import torch


class Net(torch.nn.Module):
    """A conv, a batch norm, an LSTM and a Linear, with a 2-D buffer and typed list/dict attributes."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.bn = torch.nn.BatchNorm2d(8)
        self.lstm = torch.nn.LSTM(8, 16, batch_first=True)
        self.fc = torch.nn.Linear(16, 4)
        self.register_buffer("table", torch.arange(10.0).reshape(2, 5))
        self.names: list[str] = ["a", "b"]
        self.sizes: dict[str, int] = {"x": 1}

    def forward(self, x):
        y = self.bn(self.conv(x)).mean((2, 3)).unsqueeze(1)
        out, _ = self.lstm(y)
        return self.fc(out[:, -1])


def pruned():
    torch.manual_seed(0)
    net = Net().eval()
    with torch.no_grad():
        w = net.conv.weight
        w.mul_((w.abs() > w.abs().flatten().median()).float())  # about 50 % unstructured
        f = net.fc.weight.view(-1, 4)
        keep = f.abs().topk(2, dim=1).indices  # 2:4 along each row's groups of 4
        f.copy_(torch.zeros_like(f).scatter(1, keep, f.gather(1, keep)))
    return net


def describe(path):
    state = torch.jit.load(path).state_dict()
    return [{"name": k, "shape": list(v.shape), "dtype": str(v.dtype).removeprefix("torch."),
             "nnz": int((v != 0).sum())} for k, v in state.items()]


def describe_export(path):
    program = torch.export.load(path)
    state = dict(program.state_dict)
    return [{"name": k, "shape": list(v.shape), "dtype": str(v.dtype).removeprefix("torch."),
             "nnz": int((v != 0).sum())} for k, v in state.items()]


files = {
    "scripted.pt": lambda: torch.jit.script(pruned()),
    "traced.pt": lambda: torch.jit.trace(pruned(), torch.randn(1, 3, 16, 16)),
    "scripted-fp16.pt": lambda: torch.jit.script(pruned().half()),
    "quantized-dynamic.pt": lambda: torch.jit.script(
        torch.ao.quantization.quantize_dynamic(pruned(), {torch.nn.Linear}, dtype=torch.qint8)),
}
expected = {}
for name, make in files.items():
    make().save(name)
    expected[name] = describe(name) if name != "quantized-dynamic.pt" else "refused: quantized tensors"
# torch.export's PT2 archive of the same module (torch.export.save): weights by state-dict name, raw bytes
torch.export.save(torch.export.export(pruned(), (torch.randn(1, 3, 16, 16),)), "exported.pt2")
expected["exported.pt2"] = describe_export("exported.pt2")
with open("expected.json", "w") as f:  # one tensor a line
    f.write('{"torch": %s, "files": {\n' % json.dumps(torch.__version__))
    for i, (name, tensors) in enumerate(expected.items()):
        body = json.dumps(tensors) if isinstance(tensors, str) else \
            "[\n  " + ",\n  ".join(json.dumps(t) for t in tensors) + "]"
        f.write(' %s: %s%s\n' % (json.dumps(name), body, "," if i + 1 < len(expected) else ""))
    f.write("}}\n")
