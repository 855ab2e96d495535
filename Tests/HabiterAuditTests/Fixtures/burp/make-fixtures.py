#!/usr/bin/env python3
"""Writes the calls of ../mitmproxy/proxy-capture.mitm (three calls to the sync API through
mitmdump: a push with `Authorization: Bearer`, a pull answered with a gzip body and a cookie, a
form POST) as Burp Suite writes its items, with bench/burp-export.py:

- proxy-capture-burp.xml: the messages base64-encoded (Burp's default, "Base64-encode requests
  and responses" ticked).
- proxy-capture-burp-plain.xml: the two calls without a binary body, the messages as they are
  in CDATA (the option unticked).

    python3 -m venv venv && venv/bin/pip install mitmproxy==11.0.2 && venv/bin/python make-fixtures.py
"""
import importlib.util
import pathlib

here = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("burp_export", here.parents[3] / "bench" / "burp-export.py")
burp_export = importlib.util.module_from_spec(spec)
spec.loader.exec_module(burp_export)

capture = here.parent / "mitmproxy" / "proxy-capture.mitm"
burp_export.write(capture, here / "proxy-capture-burp.xml")
burp_export.write(capture, here / "proxy-capture-burp-plain.xml", plain=True)
