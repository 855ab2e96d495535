#!/usr/bin/env python3
"""Writes the calls of a mitmproxy flow file as Burp Suite writes its items when they are saved
(Proxy history or the site map, "Save items"): Burp's DTD as 2022.8 writes it, `<items
burpVersion exportTime>`, an `<item>` a call with its time, URL, host and IP, port, protocol,
method, path, extension, `<request>` and `<response>` as sent (gzip bodies stay compressed),
status, response length, MIME type and comment. For the fixtures in
Tests/HabiterAuditTests/Fixtures/burp and for comparing the reader with the raw HTTP and flow
readers on the same calls (BENCHMARKS.md, "Burp Suite's exports and HTTP messages in strings").

    /tmp/mitm/bin/python bench/burp-export.py FLOWS.mitm OUT.xml [--plain]

`--plain` writes the messages as they are in CDATA ("Base64-encode requests and responses"
unticked), and only the calls without a binary body; by default they are base64-encoded, as
Burp's default is. Needs mitmproxy from PyPI (bench/mitmproxy-flows.py says how).
"""
import base64
import datetime
import sys

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




def write(flows_path, out_path, plain=False):
    with open(flows_path, "rb") as capture:
        flows = list(io.FlowReader(capture).stream())
    if plain:
        flows = [flow for flow in flows if "gzip" not in flow.response.headers.get("content-encoding", "")]
    with open(out_path, "w") as out:
        out.write(export(flows, encode=not plain))
    return len(flows)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--plain"):
        sys.exit("usage: burp-export.py FLOWS.mitm OUT.xml [--plain]")
    print(f"{write(sys.argv[1], sys.argv[2], plain=len(sys.argv) == 4)} calls")
