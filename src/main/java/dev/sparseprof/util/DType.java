package dev.sparseprof.util;

import java.util.Locale;

/**
 * Element types of tensors, sparse values and hardware peaks. {@link #bits()} is the storage width;
 * sub-byte types are not stored here (int4 weights are out of scope for now).
 */
public enum DType {
    F64(64, true), F32(32, true), TF32(32, true), F16(16, true), BF16(16, true),
    F8_E4M3(8, true), F8_E5M2(8, true),
    I64(64, false), I32(32, false), U32(32, false), I16(16, false), U16(16, false), I8(8, false), U8(8, false), BOOL(8, false);

    private final int bits;
    private final boolean floatingPoint;

    DType(int bits, boolean floatingPoint) {
        this.bits = bits;
        this.floatingPoint = floatingPoint;
    }

    public int bits() {
        return bits;
    }

    public int sizeBytes() {
        return bits / 8;
    }

    public boolean isFloatingPoint() {
        return floatingPoint;
    }

    /** Parses the CLI/YAML spellings: {@code fp32 f32 float32 fp16 half bf16 int8 i8 tf32 ...}. */
    public static DType parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "fp64", "f64", "float64", "double" -> F64;
            case "fp32", "f32", "float32", "float" -> F32;
            case "tf32" -> TF32;
            case "fp16", "f16", "float16", "half" -> F16;
            case "bf16", "bfloat16" -> BF16;
            case "fp8", "fp8_e4m3", "f8_e4m3", "e4m3" -> F8_E4M3;
            case "fp8_e5m2", "f8_e5m2", "e5m2" -> F8_E5M2;
            case "int64", "i64" -> I64;
            case "int32", "i32" -> I32;
            case "int16", "i16" -> I16;
            case "uint16", "u16" -> U16;
            case "int8", "i8", "s8" -> I8;
            case "uint8", "u8" -> U8;
            case "bool" -> BOOL;
            default -> throw new SparseprofException("unknown dtype '" + text
                    + "' (known: fp64 fp32 tf32 fp16 bf16 fp8_e4m3 fp8_e5m2 int64 int32 int16 uint16 int8 uint8 bool)");
        };
    }

    /** The short lower-case name used in tables and JSON: fp32, fp16, bf16, int8, ... */
    public String label() {
        return switch (this) {
            case F64 -> "fp64";
            case F32 -> "fp32";
            case TF32 -> "tf32";
            case F16 -> "fp16";
            case BF16 -> "bf16";
            case F8_E4M3 -> "fp8_e4m3";
            case F8_E5M2 -> "fp8_e5m2";
            case I64 -> "int64";
            case I32 -> "int32";
            case U32 -> "uint32";
            case I16 -> "int16";
            case U16 -> "uint16";
            case I8 -> "int8";
            case U8 -> "uint8";
            case BOOL -> "bool";
        };
    }
}
