#!/usr/bin/env python3
"""Writes the captured calls of ../mitmproxy/proxy-capture.mitm (three calls to the sync API
through mitmdump: a push with `Authorization: Bearer`, a pull answered with a gzip body and a
cookie, a form POST) as Burp Suite writes its items when they are saved (Proxy history or the
site map, "Save items"): Burp's DTD as 2022.8 writes it, `<items burpVersion exportTime>`, an
`<item>` a call with its time, URL, host and IP, port, protocol, method, path, extension,
`<request>` and `<response>` as sent (gzip bodies stay compressed), status, response length,
MIME type and comment.

- proxy-capture-burp.xml: the messages base64-encoded (Burp's default, "Base64-encode requests
  and responses" ticked).
- proxy-capture-burp-plain.xml: the two calls without a binary body, the messages as they are
  in CDATA (the option unticked).

    python3 -m venv venv && venv/bin/pip install mitmproxy==11.0.2 && venv/bin/python make-fixtures.py
"""
import base64
import datetime

from mitmproxy import io
from mitmproxy.net.http.http1 import assemble

DTD = """<?xml version="1.0"?>
<!DOCTYPE items [
<!ELEMENT items (item*)>
<!ATTLIST items burpVersion CDATA "">
<!ATTLIST items exportTime CDATA "">
<!ELEMENT item (time, url, host, port, protocol, method, path, extension, request, status, responselength, mimetype, response, comment)>
<!ELEMENT time (#PCDATA)>
<!ELEMENT url (#PCDATA)>
<!ELEMENT host (#PCDATA)>
<!ATTLIST host ip CDATA "">
<!ELEMENT port (#PCDATA)>
<!ELEMENT protocol (#PCDATA)>
<!ELEMENT method (#PCDATA)>
<!ELEMENT path (#PCDATA)>
<!ELEMENT extension (#PCDATA)>
<!ELEMENT request (#PCDATA)>
<!ATTLIST request base64 (true|false) "false">
<!ELEMENT status (#PCDATA)>
<!ELEMENT responselength (#PCDATA)>
<!ELEMENT mimetype (#PCDATA)>
<!ELEMENT response (#PCDATA)>
<!ATTLIST response base64 (true|false) "false">
<!ELEMENT comment (#PCDATA)>
]>
"""


def java_time(timestamp):
    """Java's Date.toString(), as Burp writes times."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%a %b %d %H:%M:%S UTC %Y")


def item(flow, encode):
    request, response = assemble.assemble_request(flow.request), assemble.assemble_response(flow.response)
    def message(tag, data):
        if encode:
            return '<%s base64="true"><![CDATA[%s]]></%s>' % (tag, base64.b64encode(data).decode(), tag)
        return '<%s base64="false"><![CDATA[%s]]></%s>' % (tag, data.decode(), tag)
    mime = flow.response.headers.get("content-type", "")
    path = flow.request.path
    return "\n".join([
        "  <item>",
        "    <time>%s</time>" % java_time(flow.request.timestamp_start),
        "    <url><![CDATA[%s]]></url>" % flow.request.url,
        '    <host ip="%s">%s</host>' % (flow.server_conn.peername[0] if flow.server_conn.peername else "", flow.request.host),
        "    <port>%d</port>" % flow.request.port,
        "    <protocol>%s</protocol>" % flow.request.scheme,
        "    <method><![CDATA[%s]]></method>" % flow.request.method,
        "    <path><![CDATA[%s]]></path>" % path,
        "    <extension>null</extension>",
        "    " + message("request", request),
        "    <status>%d</status>" % flow.response.status_code,
        "    <responselength>%d</responselength>" % len(response),
        "    <mimetype>%s</mimetype>" % ("JSON" if "json" in mime else "text" if mime else ""),
        "    " + message("response", response),
        "    <comment></comment>",
        "  </item>",
    ])


def export(flows, encode):
    header = '<items burpVersion="2022.8.2" exportTime="%s">' % java_time(flows[-1].response.timestamp_end)
    return DTD + header + "\n" + "\n".join(item(flow, encode) for flow in flows) + "\n</items>\n"


with open("../mitmproxy/proxy-capture.mitm", "rb") as capture:
    flows = list(io.FlowReader(capture).stream())
with open("proxy-capture-burp.xml", "w") as out:
    out.write(export(flows, encode=True))
plain = [flow for flow in flows if "gzip" not in flow.response.headers.get("content-encoding", "")]
with open("proxy-capture-burp-plain.xml", "w") as out:
    out.write(export(plain, encode=False))
