#!/usr/bin/env python3
"""Writes android-backup.ab as Android's `adb backup` does, byte for byte where it matters:

- the header of PerformAdbBackupTask (frameworks/base, services/backup): "ANDROID BACKUP\n",
  the version (5), "1" (compressed), "none" (not encrypted), each on its own line;
- then the tar that FullBackup writes through write_tarfile (libs/androidfw/BackupHelpers.cpp):
  ustar magic "ustar\\0" and version "00", mode "%06o ", uid and gid "0%lo", size "%011llo",
  mtime "%0lo", the name split into prefix ("apps/<package>/<domain>") and relpath past 100
  bytes, a pax "x" header (size and path records, named "PaxHeader/<leaf>") for a relpath of 100
  bytes or more, data padded to 512 bytes, and the checksum summed into a uint16_t and written
  "%06o" NUL SPC;
- ended by finalizeBackup's two zero blocks, all deflated at BEST_COMPRESSION in the zlib
  format (java.util.zip.Deflater behind a DeflaterOutputStream).

The members: the app's _manifest, corpus/prefs/FlutterSharedPreferences.xml as its
shared_prefs file, and corpus/sync/oplog-2025-11-28.ndjson under a relpath long enough to need
the pax header. Run from the repository root:
    python3 Tests/HabiterAuditTests/Fixtures/archives/make-android-backup.py
"""
import zlib

PACKAGE = "com.habiter.app"
MTIME = 1764460800  # 2025-11-30


def checksum(block):
    block[148:156] = b" " * 8
    block[148:154] = b"%06o" % (sum(block) & 0xFFFF)
    block[154] = 0


def header(name, prefix, size, kind):
    block = bytearray(512)
    block[257:262] = b"ustar"
    block[263:265] = b"00"
    block[100:107] = b"%06o " % 0o600
    block[108:110] = b"0%o" % 0
    block[116:118] = b"0%o" % 0
    block[124:135] = b"%011o" % size
    mtime = b"%o" % MTIME
    block[136:136 + len(mtime)] = mtime
    block[156] = ord(kind)
    block[0:len(name[:100])] = name[:100]  # strncpy(buf, …, 100)
    block[345:345 + len(prefix[:155])] = prefix[:155]  # strncpy(buf + 345, …, 155)
    return block


def pax_record(key, value):
    length = len(key) + len(value) + 4
    if length > 9:
        length += 1
    if length > 99:
        length += 1
    return b"%d %s=%s\n" % (length, key, value)


def member(domain, relpath, data):
    prefix = b"apps/" + PACKAGE.encode() + (b"/" + domain if domain else b"")
    fullname = prefix + b"/" + relpath
    out = bytearray()
    if len(relpath) >= 100:
        records = pax_record(b"size", b"%d" % len(data)) + pax_record(b"path", fullname)
        # snprintf(paxHeader, 100, "PaxHeader/%s", leaf): at most 99 bytes and a NUL.
        pax = header((b"PaxHeader/" + fullname.rsplit(b"/", 1)[1])[:99], prefix, len(records), "x")
        checksum(pax)
        out += pax + records + bytes(-len(records) % 512)
    block = header(relpath[:100], prefix, len(data), "0") if len(fullname) > 100 else header(fullname, b"", len(data), "0")
    checksum(block)
    out += block + data + bytes(-len(data) % 512)
    return out


manifest = b"1\n%s\n4\n34\ncom.android.vending\n0\n1\n308202\n" % PACKAGE.encode()
prefs = open("corpus/prefs/FlutterSharedPreferences.xml", "rb").read()
oplog = open("corpus/sync/oplog-2025-11-28.ndjson", "rb").read()
long_relpath = b"app_flutter/habiter-sync/outbox/" + b"pending-operations-" * 4 + b"2025-11-28.ndjson"
tar = member(b"", b"_manifest", manifest) + member(b"sp", b"FlutterSharedPreferences.xml", prefs) \
    + member(b"f", long_relpath, oplog) + bytes(1024)
head = b"ANDROID BACKUP\n5\n1\nnone\n"
open("Tests/HabiterAuditTests/Fixtures/archives/android-backup.ab", "wb").write(head + zlib.compress(bytes(tar), 9))
