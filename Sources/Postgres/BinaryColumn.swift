/// A column's value from PostgreSQL's binary format, by its type's OID: the types the worker's tables and queries
/// return (integers in network byte order, `float8` as IEEE 754 bits, text as UTF-8, `bytea` as it is).
enum BinaryColumn {
    static func value(type: UInt32, _ bytes: UnsafeRawBufferPointer) throws(PostgresError) -> PostgresValue {
        switch (type, bytes.count) {
        case (16, 1): return .bool(bytes[0] != 0)
        case (21, 2): return .int(Int64(Int16(bigEndian: integer(bytes))))
        case (23, 4): return .int(Int64(Int32(bigEndian: integer(bytes))))
        case (20, 8): return .int(Int64(bigEndian: integer(bytes)))
        case (700, 4): return .double(Double(Float(bitPattern: UInt32(bigEndian: integer(bytes)))))
        case (701, 8): return .double(Double(bitPattern: UInt64(bigEndian: integer(bytes))))
        // text, varchar, name, unknown
        case (25, _), (1043, _), (19, _), (705, _): return .text(String(decoding: bytes, as: UTF8.self))
        case (17, _): return .bytes(Array(bytes))
        // void (what pg_advisory_xact_lock returns)
        case (2278, _): return .null
        default:
            throw PostgresError(.server, "a column of type \(type) (\(bytes.count) bytes) is not one the worker reads")
        }
    }

    private static func integer<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer) -> T {
        bytes.loadUnaligned(as: T.self)
    }
}
