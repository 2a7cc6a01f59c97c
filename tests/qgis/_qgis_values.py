"""Attribute values as QGIS returns them, made JSON-ready (shared by the PyQGIS test scripts)."""
from qgis.core import NULL
from qgis.PyQt.QtCore import Qt, QVariant


def plain(v):
    """A QGIS attribute value as a JSON value: NULL as None, dates as ISO 8601 text."""
    if v is NULL or v is None or (isinstance(v, QVariant) and v.isNull()):
        return None
    if isinstance(v, QVariant):
        v = v.value()
    if hasattr(v, "toString") and not isinstance(v, str):
        return v.toString(Qt.ISODate)
    return v
