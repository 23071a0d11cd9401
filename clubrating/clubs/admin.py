from django.contrib import admin
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from clubrating.core.admin import figure

from .models import Club, Member
from .register import member_born_notify, member_removing_notify, member_renamed_notify
from .search import name_words_q

NAME_FIELDS = {"last_name", "first_name"}  # what orders members among their ties (rating lists)
BIRTH_FIELDS = {"birth_date", "birth_year"}  # what decides a junior's factor (FIDE rules)


class MemberInline(admin.TabularInline):
    model = Member
    fields = (
        "last_name",
        "first_name",
        "sex",
        "birth_date",
        "national_id",
        "fide_id",
        "fide_rating",
        "active",
    )
    extra = 0
    show_change_link = True


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "short_name",
        "city",
        "is_home",
        "public_ratings",
        "public_tournaments",
        "public_birth_years",
        "member_count",
    )
    list_filter = ("is_home", "public_ratings", "public_tournaments", "public_birth_years")
    search_fields = ("name", "short_name", "city")
    inlines = [MemberInline]

    def save_formset(self, request, form, formset, change):
        """The members edited in the club's page: a renamed one takes his place among his ties,
        a deleted one leaves his ranks (``member_renamed_notify``, ``member_removing_notify``)."""
        if formset.model is not Member:
            return super().save_formset(request, form, formset, change)
        deleted = {f.instance.pk for f in formset.deleted_forms if f.instance.pk}
        renamed = [f.instance.pk for f in formset.initial_forms
                   if f.instance.pk and f.instance.pk not in deleted and NAME_FIELDS & set(f.changed_data)]
        born = [f.instance.pk for f in formset.initial_forms
                if f.instance.pk and f.instance.pk not in deleted and BIRTH_FIELDS & set(f.changed_data)]
        with transaction.atomic():
            member_removing_notify(member_ids=sorted(deleted))
            super().save_formset(request, form, formset, change)
            for member_id in renamed:
                member_renamed_notify(member_id=member_id)
            for member_id in born:
                member_born_notify(member_id=member_id)

    def get_queryset(self, request):
        # Counted in the list's one query, not one count per club.
        return super().get_queryset(request).annotate(members_counted=Count("members"))

    @admin.display(description=_("members"), ordering="members_counted")
    def member_count(self, obj):
        return obj.members_counted


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = (
        "last_name",
        "first_name",
        "sex",
        "birth_date",
        "club",
        "national_id",
        figure(Member, "fide_id", "id"),
        "fide_title",
        figure(Member, "fide_rating", "rating"),
        "active",
    )
    list_filter = ("active", "sex", "club", "fide_title")
    # The names are searched as everywhere (``get_search_results``), these fields as the admin does.
    search_fields = ("national_id", "fide_id", "email")
    list_select_related = ("club",)
    # A filtered page counts its own rows only, not the whole register's as well.
    show_full_result_count = False
    autocomplete_fields = ("user",)
    fieldsets = (
        (None, {"fields": ("last_name", "first_name", "sex", "birth_date", "birth_year", "club", "active")}),
        (_("Identifiers and ratings"), {"fields": ("national_id", "fide_id", "fide_title", "fide_rating")}),
        (_("Contact"), {"fields": ("email", "phone", "user")}),
        (_("Privacy"), {"fields": ("profile_restricted", "guardian_consent_on")}),
    )

    @transaction.atomic
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and NAME_FIELDS & set(form.changed_data):
            member_renamed_notify(member_id=obj.pk)  # his place among his ties
        if change and BIRTH_FIELDS & set(form.changed_data):
            member_born_notify(member_id=obj.pk)  # a junior's factor

    @transaction.atomic
    def delete_model(self, request, obj):
        member_removing_notify(member_ids=[obj.pk])
        super().delete_model(request, obj)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        member_removing_notify(member_ids=list(queryset.order_by("pk").values_list("pk", flat=True)))
        super().delete_queryset(request, queryset)

    def get_search_results(self, request, queryset, search_term):
        """Members with every word in the name (accents and case folded as in the member search,
        ``clubrating.clubs.search``), or found by number or e-mail address."""
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        conditions = name_words_q(search_term)
        if not conditions:
            return found, may_have_duplicates
        by_name = queryset
        for condition in conditions:
            by_name = by_name.filter(condition)
        return by_name | found, may_have_duplicates
