# The view classes carry no docstrings on purpose: DRF's OPTIONS metadata
# takes the view description from the docstring, and ours is "".
import json
from collections import OrderedDict

from rest_framework import generics, serializers

from .models import Agency, Competition, Vacancy


class DocSerializer(serializers.BaseSerializer):
    # The stored doc is the record in its API form; keep its key order.
    def to_representation(self, instance):
        return json.loads(instance.doc, object_pairs_hook=OrderedDict)


def published(model):
    return model.objects.filter(published=1).order_by("id")


class AgenciesForVacancies(generics.ListAPIView):
    serializer_class = DocSerializer
    pagination_class = None

    def get_queryset(self):
        return published(Agency)


class AgencyInstance(generics.RetrieveAPIView):
    serializer_class = DocSerializer

    def get_queryset(self):
        return published(Agency)


class VacancyList(generics.ListAPIView):
    serializer_class = DocSerializer

    def get_queryset(self):
        return published(Vacancy)


class VacancyInstance(generics.RetrieveAPIView):
    serializer_class = DocSerializer

    def get_queryset(self):
        return published(Vacancy)


class CompetitionList(generics.ListAPIView):
    serializer_class = DocSerializer

    def get_queryset(self):
        return published(Competition)


class CompetitionInstance(generics.RetrieveAPIView):
    serializer_class = DocSerializer

    def get_queryset(self):
        return published(Competition)
