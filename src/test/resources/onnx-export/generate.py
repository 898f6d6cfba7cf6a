"""Writes the three ONNX files beside this script: one PyTorch module (Embedding, Conv1d, LSTM, bidirectional GRU,
Linear) exported by torch.onnx's TorchScript exporter with and without constant folding, and by its dynamo
exporter (torch 2.x's default). Without folding, the recurrent weights reach LSTM/GRU through PyTorch's gate
reorder (Slice, Concat, Unsqueeze; two tensors per bidirectional weight) and the Linear through a Transpose;
with it, all are folded into initializers; the dynamo export folds them into values named val_N and says each
node's module in its metadata.
Run once with torch 2.13.0+cpu, onnx, onnxscript and onnxruntime 1.30.0 (pip install --target DIR torch onnx onnxscript onnxruntime):
    PYTHONPATH=DIR python3 generate.py"""
import os
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.lstm = nn.LSTM(16, 24, batch_first=True)
        self.gru = nn.GRU(24, 12, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(24, 10)
        self.conv = nn.Conv1d(16, 8, 3)

    def forward(self, x):
        e = self.emb(x)
        c = self.conv(e.transpose(1, 2))
        y, _ = self.lstm(e)
        z, _ = self.gru(y)
        return self.fc(z).sum() + c.sum()


here = os.path.dirname(os.path.abspath(__file__))
m = Net().eval()
x = torch.randint(0, 50, (2, 7))
for fold, name in ((True, "rnn-folded.onnx"), (False, "rnn-unfolded.onnx")):
    torch.onnx.export(m, (x,), os.path.join(here, name), dynamo=False, do_constant_folding=fold, opset_version=17)
torch.onnx.export(m, (x,), os.path.join(here, "rnn-dynamo.onnx"), dynamo=True, external_data=False)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(32, 64)
        self.b = nn.Linear(64, 16)
        self.c = nn.Conv2d(3, 8, 3, padding=1)
        self.d = nn.ConvTranspose2d(8, 4, 2, stride=2)

    def forward(self, x, img):
        return self.b(torch.relu(self.a(x))), self.d(self.c(img))


# onnxruntime's static quantization of it, in both of its formats: QDQ (DequantizeLinear before each
# float op, the default) and QOperator (QLinearConv, com.microsoft QGemm)
import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static

float_path = os.path.join(here, "mlp-float.onnx")
torch.onnx.export(Mlp().eval(), (torch.randn(5, 32), torch.randn(1, 3, 16, 16)), float_path, dynamo=True, external_data=False)


class Calibration(CalibrationDataReader):
    def __init__(self):
        self.rng = np.random.default_rng(0)
        self.left = 3

    def get_next(self):
        self.left -= 1
        if self.left < 0:
            return None
        return {"x": self.rng.standard_normal((5, 32), dtype=np.float32), "img": self.rng.standard_normal((1, 3, 16, 16), dtype=np.float32)}


quantize_static(float_path, os.path.join(here, "mlp-qdq.onnx"), Calibration(), quant_format=QuantFormat.QDQ, per_channel=True)
quantize_static(float_path, os.path.join(here, "mlp-qop.onnx"), Calibration(), quant_format=QuantFormat.QOperator)

# onnxruntime's int4 weight-only quantization (its LLM exports' MatMulNBits), symmetric and with zero points,
# of a Linear over a 3-D input (exported as MatMul, which is what the quantizer rewrites)
from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

linear_path = os.path.join(here, "linear-float.onnx")
torch.onnx.export(nn.Linear(64, 24).eval(), (torch.randn(1, 4, 64),), linear_path, dynamo=True, external_data=False)
for symmetric, name in ((True, "linear-int4.onnx"), (False, "linear-int4-zp.onnx")):
    quantizer = MatMulNBitsQuantizer(onnx.load(linear_path), block_size=32, is_symmetric=symmetric)
    quantizer.process()
    quantizer.model.save_model_to_file(os.path.join(here, name), False)

# onnxruntime's float16 conversion with the GEMMs kept in fp32 (op_block_list): their weights reach
# MatMul/Gemm through a Cast, while the convolutions' weights become fp16 initializers
from onnxruntime.transformers.float16 import convert_float_to_float16

onnx.save(convert_float_to_float16(onnx.load(float_path), keep_io_types=True, op_block_list=["MatMul", "Gemm"]),
          os.path.join(here, "mlp-fp16-blocked.onnx"))
